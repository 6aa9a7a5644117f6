import type { Db } from "@app/db";
import type { MailName } from "@app/mail";
import { congressCalendar } from "../services/calendar/congress-calendar";

/** Mails that confirm a place at an event carry its calendar file. */
const CALENDAR_MAILS: ReadonlySet<string> = new Set<MailName>([
  "participation-confirmation",
  "order-ticket",
  "order-ticket-package",
]);

export interface MailAttachment {
  filename: string;
  content: string;
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
export async function mailAttachments(db: Db, appUrl: string, mail: OutboxMail): Promise<MailAttachment[]> {
  if (mail.variables.__template || mail.congressId === null || mail.userId === null || !wantsCalendar(mail)) {
    return [];
  }
  // made at send time: whether the event has ended and the webinar link shows are as of now
  const file = await congressCalendar(
    db,
    appUrl,
    mail.congressId,
    { id: mail.userId, isStaff: false },
    new Date(),
  );
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
