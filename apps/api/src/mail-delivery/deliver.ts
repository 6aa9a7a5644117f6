import { type Db, schema } from "@app/db";
import { MAIL_CATALOGUE, type MailName, renderMail, type StoredTemplate } from "@app/mail";
import { MAIL_MAX_ATTEMPTS } from "@app/shared";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { Clock } from "../services/deps";
import { mailAttachments } from "./attachments";

/**
 * The template for a mail: the congress-specific one, else the general one, else the built-in default
 * of the catalogue, so no mail is ever skipped for a missing template.
 */
export async function findTemplate(
  db: Db,
  name: MailName,
  congressId: number | null,
): Promise<StoredTemplate> {
  const { mailTemplates } = schema;
  const rows = await db
    .select({
      subject: mailTemplates.subject,
      content: mailTemplates.content,
      congressId: mailTemplates.congressId,
    })
    .from(mailTemplates)
    .where(
      and(
        eq(mailTemplates.name, name),
        congressId === null
          ? isNull(mailTemplates.congressId)
          : or(isNull(mailTemplates.congressId), eq(mailTemplates.congressId, congressId)),
      ),
    );
  const specific = rows.find((row) => row.congressId !== null) ?? rows[0];
  const fallback = MAIL_CATALOGUE[name];
  return specific ?? { subject: fallback.defaultSubject, content: fallback.defaultContent };
}

export type DeliveryResult = "sent" | "skipped";

/**
 * Sends one outbox mail unless it was sent already. The row stays locked while the SMTP server answers,
 * so two workers never send the same mail; a failure is recorded and rethrown for pg-boss to retry.
 */
export async function deliverOutboxMail(
  { db, clock }: { db: Db; clock: Clock },
  transport: Transporter,
  from: string,
  outboxId: number,
  /** public address of the web app, for the links in attached calendar files */
  appUrl: string,
  /** makes the verification codes of attached certificates (ADR 0118) */
  certificateSecret?: string,
): Promise<DeliveryResult> {
  const { mailOutbox } = schema;
  try {
    return await db.transaction(async (tx) => {
      const [mail] = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, outboxId), eq(mailOutbox.status, "queued")))
        .for("update", { skipLocked: true });
      if (!mail) {
        return "skipped";
      }
      // an admin's test mail carries the edited, not yet saved template (see sendTestMail)
      const edited = mail.variables.__template as StoredTemplate | undefined;
      const template = edited ?? (await findTemplate(db, mail.templateName as MailName, mail.congressId));
      const rendered = await renderMail(template, mail.variables);
      await transport.sendMail({
        from,
        to: mail.toEmail,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        attachments: await mailAttachments(db, appUrl, mail, clock.now(), certificateSecret),
        // the same mail keeps its Message-ID across retries, so receivers can drop a rare duplicate
        messageId: `<${mail.idempotencyKey.replace(/[^\w.-]/g, "-")}.${mail.id}@kongress-plattform>`,
      });
      await tx
        .update(mailOutbox)
        .set({
          status: "sent",
          sentAt: clock.now(),
          attempts: sql`${mailOutbox.attempts} + 1`,
          lastError: null,
          // a link with a token is needed only until it is sent: it does not stay in the database
          variables: withoutSecrets,
        })
        .where(eq(mailOutbox.id, mail.id));
      return "sent" as const;
    });
  } catch (error) {
    // after MAIL_MAX_ATTEMPTS the mail is given up: the sweeper only retries queued mails, an admin may
    // resend. A given-up mail keeps no link either: the admin's resend makes a fresh one (ADR 0091)
    const givenUp = sql`${mailOutbox.attempts} + 1 >= ${MAIL_MAX_ATTEMPTS}`;
    await db
      .update(mailOutbox)
      .set({
        attempts: sql`${mailOutbox.attempts} + 1`,
        lastError: String(error).slice(0, 500),
        status: sql`CASE WHEN ${givenUp} THEN 'failed' ELSE ${mailOutbox.status} END`,
        variables: sql`CASE WHEN ${givenUp} THEN ${withoutSecrets} ELSE ${mailOutbox.variables} END`,
      })
      .where(and(eq(mailOutbox.id, outboxId), eq(mailOutbox.status, "queued")));
    throw error;
  }
}

/**
 * The row's variables without those of its catalogue mail that carry secrets (`secretVariables`: links
 * with tokens), chosen by the row's template name in SQL, so it serves statements that have not read the row.
 */
const withoutSecrets = sql`${schema.mailOutbox.variables} - CASE ${schema.mailOutbox.templateName} ${sql.join(
  Object.values(MAIL_CATALOGUE)
    .filter((mail) => (mail.secretVariables ?? []).length > 0)
    .map(
      (mail) =>
        sql`WHEN ${mail.name} THEN ARRAY[${sql.join(
          (mail.secretVariables ?? []).map((name) => sql`${name}`),
          sql`, `,
        )}]::text[]`,
    ),
  sql` `,
)} ELSE ARRAY[]::text[] END`;
