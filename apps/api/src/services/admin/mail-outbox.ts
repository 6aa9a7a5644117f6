import { type Db, type DbOrTx, schema } from "@app/db";
import { MAIL_CATALOGUE, type MailName } from "@app/mail";
import {
  MAIL_MAX_ATTEMPTS,
  MAIL_STATUS_LABELS,
  type MailStatus,
  MSG_OUTBOX,
  type ZMailOutboxListInput,
} from "@app/shared";
import { and, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { maskEmails, maskText } from "../../lib/log-privacy";
import { adminPage } from "../../lib/paging";
import { FRESH_LINKS } from "../auth/fresh-links";
import { type LinkOrigin, linkOrigin } from "../auth/user-rows";
import type { ServiceDeps } from "../deps";
import { adminActor, recordAudit } from "./audit";

const { mailOutbox } = schema;

/**
 * One page of the outbox, newest first. Recipients and errors are masked like log lines (only the
 * domain of an address is shown): the table is for delivery problems, not for reading who got what.
 */
export async function listOutbox(db: Db, input: z.output<typeof ZMailOutboxListInput>) {
  const where = and(
    input.status ? eq(mailOutbox.status, input.status) : undefined,
    input.template ? eq(mailOutbox.templateName, input.template) : undefined,
  );
  const rows = db
    .select({
      id: mailOutbox.id,
      templateName: mailOutbox.templateName,
      toEmail: mailOutbox.toEmail,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(where)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
  const page = await adminPage(
    db,
    { table: mailOutbox, where, page: input.page },
    rows.$dynamic(),
    ({ toEmail, lastError, ...row }) => ({
      ...row,
      recipient: maskEmails(toEmail),
      templateDescription: MAIL_CATALOGUE[row.templateName as MailName]?.description ?? row.templateName,
      statusLabel: MAIL_STATUS_LABELS[row.status as MailStatus] ?? row.status,
      lastError: lastError === null ? null : maskText(lastError),
    }),
  );
  return { ...page, maxAttempts: MAIL_MAX_ATTEMPTS };
}

/**
 * Puts a failed mail back in the queue with its attempts reset and starts its delivery at once. A mail
 * with a link (`secretVariables`) gets a new link: a given-up mail keeps none (ADR 0091).
 */
export async function resendMail(
  ctx: Pick<ServiceDeps, "db" | "mail" | "env" | "clock">,
  { id, actorId }: { id: number; actorId: number },
) {
  await ctx.db.transaction(async (tx) => {
    const [mail] = await tx
      .select({
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        templateName: mailOutbox.templateName,
        userId: mailOutbox.userId,
        congressId: mailOutbox.congressId,
        variables: mailOutbox.variables,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.id, id))
      .for("update");
    if (!mail) {
      throw new AppError("NOT_FOUND", `mail ${id}`, MSG_OUTBOX.notFound);
    }
    if (mail.status !== "failed") {
      throw new AppError("CONFLICT", `mail ${id} is ${mail.status}`, MSG_OUTBOX.onlyFailed);
    }
    await tx
      .update(mailOutbox)
      .set({
        status: "queued",
        attempts: 0,
        lastError: null,
        variables: await freshVariables(tx, linkOrigin(ctx), mail),
      })
      .where(eq(mailOutbox.id, id));
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "mail.resend",
      entity: "mail",
      entityId: id,
      changes: { status: ["failed", "queued"], attempts: [mail.attempts, 0] },
    });
  });
  await ctx.mail.dispatch([id]);
  return { id, status: "queued" as const };
}

/** The variables to send again: those kept, and a new link for a mail that had one (`FRESH_LINKS`). */
async function freshVariables(
  tx: DbOrTx,
  origin: LinkOrigin,
  mail: {
    templateName: string;
    userId: number | null;
    congressId: number | null;
    variables: Record<string, unknown>;
  },
): Promise<Record<string, unknown>> {
  const name = mail.templateName as MailName;
  if ((MAIL_CATALOGUE[name]?.secretVariables ?? []).length === 0) {
    return mail.variables;
  }
  // every mail with a secret names its link `url`
  const make = FRESH_LINKS[name];
  const url =
    make && mail.userId !== null
      ? await make(tx, origin, { userId: mail.userId, congressId: mail.congressId })
      : null;
  if (url === null) {
    throw new AppError("CONFLICT", `mail ${mail.templateName}: link not renewable`, MSG_OUTBOX.linkGone);
  }
  return { ...mail.variables, url };
}
