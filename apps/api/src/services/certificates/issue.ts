import { type DbOrTx, schema } from "@app/db";
import {
  berlinDate,
  type CertificateDayFacts,
  type CertificateFacts,
  type CertificateIssuerFacts,
  type CertificateKind,
  type IsoDate,
  MSG_CERTIFICATE,
} from "@app/shared";
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Env } from "../../env";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../deps";
import { type FortbildungEvent, loadFortbildungEvent, participantDays } from "../fortbildung/facts";
import { certificateCode, codeHash } from "./code";
import { loadIssuer } from "./issuer";

const { certificates, users, learningChecks, learningCheckAttempts, congressPackages } = schema;

/** What issuing needs: the database (or a transaction), the secret of the codes and the clock. */
export interface CertificateDeps {
  db: DbOrTx;
  env: Pick<Env, "CERTIFICATE_SECRET">;
  clock: Clock;
}

interface NewCertificate {
  userId: number;
  congressId: number;
  kind: CertificateKind;
  learningCheckId: number | null;
  facts: CertificateFacts;
}

/**
 * Inserts one certificate: its id first (the code is derived from it), the number `<year>-<id>` (unique,
 * not gapless), the hash of the code. Null when the partial unique indexes already hold a current one.
 */
export async function insertCertificate(
  deps: CertificateDeps,
  row: NewCertificate,
): Promise<{ id: number; number: string } | null> {
  const next = await deps.db.execute<{ id: number }>(
    sql`SELECT nextval(pg_get_serial_sequence('certificates', 'id'))::int AS id`,
  );
  const id = next.rows[0]?.id ?? 0;
  const [inserted] = await deps.db
    .insert(certificates)
    .values({
      id,
      number: `${row.facts.issuedOn.slice(0, 4)}-${String(id).padStart(6, "0")}`,
      codeHash: codeHash(certificateCode(deps.env.CERTIFICATE_SECRET, id)),
      userId: row.userId,
      congressId: row.congressId,
      kind: row.kind,
      learningCheckId: row.learningCheckId,
      facts: row.facts as unknown as Record<string, unknown>,
      issuedAt: deps.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: certificates.id, number: certificates.number });
  return inserted ?? null;
}

const fullName = (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname}`.trim();

async function people(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) {
    return new Map<number, { name: string; efn: string | null }>();
  }
  const rows = await db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname, efn: users.efn })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((u) => [u.id, { name: fullName(u), efn: u.efn }]));
}

const eventFacts = (
  event: FortbildungEvent,
  issuer: CertificateIssuerFacts,
  participant: { name: string; efn: string | null },
  issuedOn: IsoDate,
  days: CertificateDayFacts[],
): CertificateFacts => ({
  kind: "event",
  issuedOn,
  participant,
  issuer,
  congress: { title: event.title, firstDay: event.firstDay, lastDay: event.lastDay },
  vnr: event.vnr,
  category: event.fortbildungCategory,
  days,
  points: days.reduce((sum, d) => sum + d.points, 0),
  recording: null,
});

/** Each participant's reached days of an event, as the certificate lists them. */
async function reachedDays(db: DbOrTx, event: FortbildungEvent, userId?: number) {
  const byUser = new Map<number, CertificateDayFacts[]>();
  for (const d of await participantDays(db, event, { userId })) {
    if (d.outcome.reached) {
      const list = byUser.get(d.userId) ?? [];
      list.push({
        day: d.day,
        minutes: d.outcome.attendedMinutes,
        contentMinutes: d.outcome.contentMinutes,
        points: d.outcome.points,
      });
      byUser.set(d.userId, list);
    }
  }
  return byUser;
}

/** Whether an event's certificates are due: Fortbildung, and its last day (Berlin) is over. */
export const eventEnded = (event: FortbildungEvent, today: IsoDate) =>
  event.fortbildung && today > (event.lastDay ?? event.firstDay);

/**
 * Issues the event certificates that are due (ADR 0116): after the event's last day, to every
 * participant (or only `userId`) who reached at least one day's rule and has no certificate of it yet
 * (a revoked one included: revoking is not undone by issuing again; a re-issue is the admin's). The facts
 * are frozen now. Nothing is issued before the admin has named the issuer. Idempotent: parallel runs
 * insert each certificate once (the partial unique index). Answers the new certificates' ids.
 */
export async function issueEventCertificates(
  deps: CertificateDeps,
  input: { congressId: number; userId?: number },
): Promise<number[]> {
  const event = await loadFortbildungEvent(deps.db, input.congressId);
  const today = berlinDate(deps.clock.now());
  if (!eventEnded(event, today)) {
    return [];
  }
  const issuer = await loadIssuer(deps.db);
  if (!issuer.name) {
    return [];
  }
  const reached = await reachedDays(deps.db, event, input.userId);
  const existing = await deps.db
    .select({ userId: certificates.userId })
    .from(certificates)
    .where(
      and(
        eq(certificates.congressId, event.id),
        eq(certificates.kind, "event"),
        input.userId === undefined ? undefined : eq(certificates.userId, input.userId),
      ),
    );
  const have = new Set(existing.map((r) => r.userId));
  const due = [...reached.keys()].filter((id) => !have.has(id));
  const who = await people(deps.db, due);
  const issued: number[] = [];
  for (const userId of due) {
    const participant = who.get(userId);
    if (participant) {
      const facts = eventFacts(event, issuer, participant, today, reached.get(userId) ?? []);
      const made = await insertCertificate(deps, {
        userId,
        congressId: event.id,
        kind: "event",
        learningCheckId: null,
        facts,
      });
      if (made) {
        issued.push(made.id);
      }
    }
  }
  return issued;
}

/** The facts of a recording's certificate: the check's VNR, category and points, its first passed attempt. */
async function recordingFacts(
  db: DbOrTx,
  input: { userId: number; learningCheckId: number },
  issuedOn: IsoDate,
): Promise<{ congressId: number; facts: CertificateFacts }> {
  const [check] = await db
    .select({
      packageName: congressPackages.name,
      congressId: congressPackages.congressId,
      day: learningChecks.day,
      vnr: learningChecks.vnr,
      category: learningChecks.category,
      points: learningChecks.points,
    })
    .from(learningChecks)
    .innerJoin(congressPackages, eq(congressPackages.id, learningChecks.packageId))
    .where(eq(learningChecks.id, input.learningCheckId));
  const [attempt] = await db
    .select({ submittedAt: learningCheckAttempts.submittedAt })
    .from(learningCheckAttempts)
    .where(
      and(
        eq(learningCheckAttempts.checkId, input.learningCheckId),
        eq(learningCheckAttempts.userId, input.userId),
        eq(learningCheckAttempts.passed, true),
        isNotNull(learningCheckAttempts.submittedAt),
      ),
    )
    .orderBy(asc(learningCheckAttempts.submittedAt))
    .limit(1);
  if (!check || !attempt?.submittedAt) {
    throw new AppError(
      "CONFLICT",
      `no passed attempt of user ${input.userId} at check ${input.learningCheckId}`,
      MSG_CERTIFICATE.notPassed,
      MSG_CERTIFICATE.nothingReachedTitle,
    );
  }
  const event = await loadFortbildungEvent(db, check.congressId);
  const participant = (await people(db, [input.userId])).get(input.userId);
  if (!participant) {
    throw new AppError("NOT_FOUND", `user ${input.userId} missing`);
  }
  let points = check.points;
  if (points === null) {
    // "as the event's days": the points of the day the check covers, or of all days of the event
    const days = await participantDays(db, event, {
      userId: input.userId,
      ...(check.day ? { day: check.day } : {}),
    });
    points = days.reduce(
      (sum, d) => sum + (event.rules.pointsPerDay ?? Math.floor(d.outcome.contentMinutes / 45)),
      0,
    );
  }
  return {
    congressId: check.congressId,
    facts: {
      kind: "recording",
      issuedOn,
      participant,
      issuer: await loadIssuer(db),
      congress: { title: event.title, firstDay: event.firstDay, lastDay: event.lastDay },
      // a recording is a measure of its own: its check's VNR and category, never the live event's
      vnr: check.vnr,
      category: check.category,
      days: [],
      points,
      recording: {
        packageName: check.packageName,
        day: check.day,
        passedOn: berlinDate(attempt.submittedAt),
      },
    },
  };
}

/**
 * The certificate of a recording whose learning check `userId` passed (ADR 0116, ADR 0120): the check's
 * category and points, the package and the date of passing (the first passed attempt's submission).
 * Idempotent: answers the existing certificate of that check (current or revoked) instead of a second one.
 * Refused (409) without a passed attempt; null while no organiser is named. Call it inside the submission's
 * transaction.
 */
export async function issueRecordingCertificate(
  deps: CertificateDeps,
  input: { userId: number; learningCheckId: number },
): Promise<{ id: number; number: string; issued: boolean } | null> {
  const existing = async () => {
    const [row] = await deps.db
      .select({ id: certificates.id, number: certificates.number })
      .from(certificates)
      .where(
        and(
          eq(certificates.userId, input.userId),
          eq(certificates.learningCheckId, input.learningCheckId),
          eq(certificates.kind, "recording"),
        ),
      )
      .orderBy(sql`${certificates.revokedAt} IS NULL DESC`, sql`${certificates.id} DESC`)
      .limit(1);
    return row;
  };
  const before = await existing();
  if (before) {
    return { ...before, issued: false };
  }
  // like an event's: nothing is issued before an admin named the organiser; the participant's list issues
  // it later (`issueDueForUser`)
  if (!(await loadIssuer(deps.db)).name) {
    return null;
  }
  const { congressId, facts } = await recordingFacts(deps.db, input, berlinDate(deps.clock.now()));
  const made = await insertCertificate(deps, {
    userId: input.userId,
    congressId,
    kind: "recording",
    learningCheckId: input.learningCheckId,
    facts,
  });
  if (made) {
    return { ...made, issued: true };
  }
  // a parallel submission inserted it first
  const after = await existing();
  if (!after) {
    throw new AppError("INTERNAL", "recording certificate neither inserted nor found");
  }
  return { ...after, issued: false };
}

/** The facts a re-issue freezes: the current ones of the same person and event or check. */
export async function currentFacts(
  deps: CertificateDeps,
  old: { userId: number; congressId: number; kind: string; learningCheckId: number | null },
): Promise<CertificateFacts> {
  const today = berlinDate(deps.clock.now());
  if (old.kind === "recording") {
    if (old.learningCheckId === null) {
      throw new AppError(
        "CONFLICT",
        "recording certificate without its check",
        MSG_CERTIFICATE.notPassed,
        MSG_CERTIFICATE.nothingReachedTitle,
      );
    }
    return (
      await recordingFacts(deps.db, { userId: old.userId, learningCheckId: old.learningCheckId }, today)
    ).facts;
  }
  const event = await loadFortbildungEvent(deps.db, old.congressId);
  const days = (await reachedDays(deps.db, event, old.userId)).get(old.userId) ?? [];
  const participant = (await people(deps.db, [old.userId])).get(old.userId);
  if (days.length === 0 || !participant) {
    throw new AppError(
      "CONFLICT",
      `user ${old.userId} reached no day of congress ${old.congressId}`,
      MSG_CERTIFICATE.nothingReached,
      MSG_CERTIFICATE.nothingReachedTitle,
    );
  }
  return eventFacts(event, await loadIssuer(deps.db), participant, today, days);
}
