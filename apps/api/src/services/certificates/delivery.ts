import { type Db, schema } from "@app/db";
import { berlinDate, type CertificateFacts } from "@app/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Env } from "../../env";
import { queueMail } from "../../mail-delivery/outbox";
import type { Clock } from "../deps";
import { endedFortbildungEvents, ISSUE_WINDOW_DAYS } from "./files";
import { issueEventCertificates } from "./issue";

const { certificates, users } = schema;

/** The outbox's key of a certificate's mail: one mail per certificate, whoever queues it how often. */
export const certificateMailKey = (id: number) => `certificate:${id}`;

/**
 * The delivery job (ADR 0118): issues the due certificates of every Fortbildung
 * event whose last day is over (within `ISSUE_WINDOW_DAYS`), then queues one mail per current certificate
 * not mailed yet (issued within the window: a re-issue too), the PDF attached when the mail is sent.
 * Each mail is queued with `mailed_at` in one transaction under the outbox's idempotency key, so a second
 * run, a restart or a second instance queues nothing again. Answers the outbox ids to dispatch.
 */
export async function deliverCertificates(deps: {
  db: Db;
  env: Pick<Env, "CERTIFICATE_SECRET" | "APP_URL">;
  clock: Clock;
}): Promise<{ issued: number; queued: number[] }> {
  const today = berlinDate(deps.clock.now());
  let issued = 0;
  for (const congressId of await endedFortbildungEvents(deps.db, today)) {
    issued += (await issueEventCertificates(deps, { congressId })).length;
  }
  const due = await deps.db
    .select({ id: certificates.id })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .where(
      and(
        isNull(certificates.mailedAt),
        isNull(certificates.revokedAt),
        isNull(users.deletedAt),
        sql`${certificates.issuedAt} >= ${deps.clock.now()}::timestamptz - make_interval(days => ${ISSUE_WINDOW_DAYS})`,
      ),
    )
    .orderBy(certificates.id);
  const queued: number[] = [];
  for (const { id } of due) {
    const outboxId = await deps.db.transaction(async (tx) => {
      // the row lock makes a parallel run wait here and then find it mailed
      const [row] = await tx
        .select({
          userId: certificates.userId,
          congressId: certificates.congressId,
          number: certificates.number,
          facts: sql<CertificateFacts>`${certificates.facts}`,
          email: users.email,
          firstname: users.firstname,
          lastname: users.lastname,
        })
        .from(certificates)
        .innerJoin(users, eq(users.id, certificates.userId))
        .where(and(eq(certificates.id, id), isNull(certificates.mailedAt), isNull(certificates.revokedAt)))
        .for("update", { of: certificates, skipLocked: true });
      if (!row) {
        return null;
      }
      const mailId = await queueMail(tx, {
        templateName: "certificate",
        to: row.email,
        userId: row.userId,
        congressId: row.congressId,
        idempotencyKey: certificateMailKey(id),
        variables: {
          userFullName: `${row.firstname} ${row.lastname}`.trim(),
          firstname: row.firstname,
          lastname: row.lastname,
          congressTitle: row.facts.congress.title,
          packageName: row.facts.recording?.packageName ?? "",
          recording: row.facts.recording !== null,
          certificateNumber: row.number,
          points: row.facts.points,
          url: `${deps.env.APP_URL.replace(/\/+$/, "")}/profile`,
          certificateId: id,
        },
      });
      await tx.update(certificates).set({ mailedAt: deps.clock.now() }).where(eq(certificates.id, id));
      return mailId;
    });
    if (outboxId !== null) {
      queued.push(outboxId);
    }
  }
  return { issued, queued };
}
