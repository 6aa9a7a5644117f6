import { type DbOrTx, schema } from "@app/db";
import type { MailName } from "@app/mail";

export interface QueueMailInput {
  templateName: MailName;
  to: string;
  userId?: number | null;
  congressId?: number | null;
  variables: Record<string, unknown>;
  /** one mail per key: the same cause queued twice (retries, double clicks) sends once */
  idempotencyKey: string;
}

/**
 * Writes a mail to the outbox, normally inside the transaction of the change that causes it. Returns
 * the outbox id, or null when a mail with this idempotency key exists already. Hand the ids to
 * `MailDispatcher.dispatch` after the transaction has committed.
 */
export async function queueMail(db: DbOrTx, input: QueueMailInput): Promise<number | null> {
  const [row] = await db
    .insert(schema.mailOutbox)
    .values({
      idempotencyKey: input.idempotencyKey,
      templateName: input.templateName,
      toEmail: input.to,
      userId: input.userId ?? null,
      congressId: input.congressId ?? null,
      variables: input.variables,
    })
    .onConflictDoNothing({ target: schema.mailOutbox.idempotencyKey })
    .returning({ id: schema.mailOutbox.id });
  return row?.id ?? null;
}

/**
 * Mail work done by a job after the answer, so that the answer takes the same time whether the account
 * exists or not (the request itself is durable: a pg-boss job).
 */
export type DeferredMail = { kind: "password-reset" | "sign-in-link"; email: string };

export interface MailDispatcher {
  /** Starts delivery of committed outbox mails (a pg-boss job each); the sweeper catches anything missed. */
  dispatch(ids: Array<number | null>): Promise<void>;
  /** Queues mail work for a job (`DeferredMail`). */
  defer(request: DeferredMail): Promise<void>;
}
