import { schema } from "@app/db";
import {
  addDays,
  berlinDate,
  type CertificateFacts,
  type ChamberReportState,
  chamberReportHint,
  type IsoDate,
  MSG_CHAMBER_REPORT,
} from "@app/shared";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { FortbildungEvent } from "../fortbildung/facts";
import { ISSUE_WINDOW_DAYS } from "./files";
import { type CertificateDeps, issueEventCertificates, issueRecordingCertificate } from "./issue";
import { loadIssuer } from "./issuer";

/**
 * What the chamber is told is what the organiser certified: the chamber's report lists the valid
 * certificates (not revoked; a replaced one through its replacement, which is current), with the facts
 * frozen in them. Watch time decides whether a certificate is issued, never the report itself.
 */

const { certificates, users, learningCheckAttempts } = schema;

/** One valid certificate as a line of the chamber's report. */
export interface ReportedCertificate {
  vnr: string | null;
  efn: string | null;
  /** the account's (the facts hold the printed full name only): whom the organiser would ask */
  lastname: string;
  firstname: string;
  email: string;
  /** the day certified (an event's) or the day of passing (a recording's) */
  day: IsoDate;
  points: number;
}

/**
 * Whether an event's report can be made: its certificates are issued after its last day (ADR 0116),
 * and only once an issuer is named.
 */
export function chamberReportState(
  event: Pick<FortbildungEvent, "firstDay" | "lastDay">,
  issuerNamed: boolean,
  today: IsoDate,
): ChamberReportState {
  const last = event.lastDay ?? event.firstDay;
  if (today <= last) {
    return { status: "before-end", from: addDays(last, 1) };
  }
  return issuerNamed ? { status: "ready" } : { status: "no-issuer" };
}

function refuseUnlessReady(state: ChamberReportState): void {
  const hint = chamberReportHint(state);
  if (hint !== null) {
    throw new AppError("CONFLICT", `chamber report: ${state.status}`, hint, MSG_CHAMBER_REPORT.notYetTitle);
  }
}

/** The current (not revoked) certificates that meet `conditions`, with their facts and their person. */
const currentCertificates = (deps: CertificateDeps, ...conditions: SQL[]) =>
  deps.db
    .select({
      facts: sql<CertificateFacts>`${certificates.facts}`,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .where(and(isNull(certificates.revokedAt), ...conditions));

/**
 * The event's valid certificates that name `day`, with that day's points. Those due and not yet issued
 * (the delivery job runs hourly) are issued first, as "Meine Bescheinigungen" does, within the job's
 * window; refused (409, German) before the last day is over or while no issuer is named.
 */
export async function certifiedOnDay(
  deps: CertificateDeps,
  event: FortbildungEvent,
  day: IsoDate,
): Promise<ReportedCertificate[]> {
  const today = berlinDate(deps.clock.now());
  const issuer = await loadIssuer(deps.db);
  refuseUnlessReady(chamberReportState(event, issuer.name !== "", today));
  if ((event.lastDay ?? event.firstDay) >= addDays(today, -ISSUE_WINDOW_DAYS)) {
    await issueEventCertificates(deps, { congressId: event.id });
  }
  const rows = await currentCertificates(
    deps,
    eq(certificates.congressId, event.id),
    eq(certificates.kind, "event"),
    sql`${certificates.facts} -> 'days' @> ${JSON.stringify([{ day }])}::jsonb`,
  );
  return rows.flatMap((r) => {
    const certified = r.facts.days.find((d) => d.day === day);
    return certified
      ? [{ ...person(r), vnr: r.facts.vnr, efn: r.facts.participant.efn, day, points: certified.points }]
      : [];
  });
}

const person = (r: { firstname: string; lastname: string; email: string }) => ({
  firstname: r.firstname,
  lastname: r.lastname,
  email: r.email,
});

/**
 * A learning check's valid certificates: who passed it, on which day (the first passed attempt's), with
 * the check's VNR and points as certified. A pass whose certificate waited for the issuer's name is
 * issued first (as the participant's list would); refused (409, German) while no issuer is named.
 */
export async function certifiedPasses(
  deps: CertificateDeps,
  learningCheckId: number,
): Promise<ReportedCertificate[]> {
  const issuer = await loadIssuer(deps.db);
  refuseUnlessReady(issuer.name === "" ? { status: "no-issuer" } : { status: "ready" });
  const waiting = await deps.db
    .selectDistinct({ userId: learningCheckAttempts.userId })
    .from(learningCheckAttempts)
    .where(
      and(
        eq(learningCheckAttempts.checkId, learningCheckId),
        eq(learningCheckAttempts.passed, true),
        sql`NOT EXISTS (SELECT 1 FROM ${certificates} c WHERE c.learning_check_id = ${learningCheckId}
          AND c.user_id = ${learningCheckAttempts.userId} AND c.kind = 'recording')`,
      ),
    );
  for (const { userId } of waiting) {
    await issueRecordingCertificate(deps, { userId, learningCheckId });
  }
  const rows = await currentCertificates(
    deps,
    eq(certificates.learningCheckId, learningCheckId),
    eq(certificates.kind, "recording"),
  );
  return rows.flatMap((r) =>
    r.facts.recording
      ? [
          {
            ...person(r),
            vnr: r.facts.vnr,
            efn: r.facts.participant.efn,
            day: r.facts.recording.passedOn,
            points: r.facts.points,
          },
        ]
      : [],
  );
}
