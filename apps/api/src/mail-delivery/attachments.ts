import type { Db } from "@app/db";
import type { MailName } from "@app/mail";
import { congressCalendar } from "../services/calendar/congress-calendar";
import { anyCertificateFile } from "../services/certificates/files";

/** Mails that confirm a place at an event carry its calendar file. */
const CALENDAR_MAILS: ReadonlySet<string> = new Set<MailName>([
  "participation-confirmation",
  "order-ticket",
  "order-ticket-package",
]);

export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType: string;
}

interface OutboxMail {
  templateName: string;
  congressId: number | null;
  userId: number | null;
  variables: Record<string, unknown>;
}

const wantsCalendar = (mail: OutboxMail) =>
  CALENDAR_MAILS.has(mail.templateName) ||
  // an order an admin created: a ticket (see `productKind` of CATEGORY_ORDERS in commerce/order-kinds.ts)
  (mail.templateName === "order-admin" && String(mail.variables.productKind ?? "").startsWith("Ticket"));

/**
 * Attachments built at send time from the outbox row, so a retried mail carries the event as it is then
 * (and the webinar link only if the recipient may see it now). Test mails of the editor get none.
 */
export async function mailAttachments(
  db: Db,
  appUrl: string,
  mail: OutboxMail,
  /** the send time (the clock's, ADR 0099) */
  now: Date,
  /** CERTIFICATE_SECRET: a certificate's PDF is made at send time from its stored facts (ADR 0118) */
  certificateSecret?: string,
): Promise<MailAttachment[]> {
  if (mail.templateName === "certificate" && !mail.variables.__template) {
    return certificateAttachment(db, appUrl, mail, certificateSecret);
  }
  if (mail.variables.__template || mail.congressId === null || mail.userId === null || !wantsCalendar(mail)) {
    return [];
  }
  // made at send time: whether the event has ended and the webinar link shows are as of now
  const file = await congressCalendar(db, appUrl, mail.congressId, { id: mail.userId, isStaff: false }, now);
  if (!file) {
    return [];
  }
  return [
    {
      filename: file.fileName,
      content: file.content,
      contentType: "text/calendar; charset=utf-8; method=PUBLISH",
    },
  ];
}

async function certificateAttachment(
  db: Db,
  appUrl: string,
  mail: OutboxMail,
  secret: string | undefined,
): Promise<MailAttachment[]> {
  const id = Number(mail.variables.certificateId);
  if (!secret) {
    // a configuration error, retried like a failed delivery: the mail is never sent without its PDF
    throw new Error("certificate mail without CERTIFICATE_SECRET");
  }
  const file = Number.isInteger(id)
    ? await anyCertificateFile({ db, env: { CERTIFICATE_SECRET: secret, APP_URL: appUrl } }, id)
    : null;
  if (!file) {
    throw new Error(`certificate ${mail.variables.certificateId} of an outbox mail is gone`);
  }
  return [{ filename: file.fileName, content: Buffer.from(file.bytes), contentType: "application/pdf" }];
}
