import { type Db, schema } from "@app/db";
import {
  MSG_PAYMENT_NOTIFICATIONS,
  paymentOutcomeLabel,
  type ZPaymentNotificationListInput,
} from "@app/shared";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { containsPattern } from "../../lib/like";
import { adminPage } from "../../lib/paging";
import { customUid } from "../commerce/purchase-orders";

const { paymentNotifications: pn, users } = schema;

/*
 * The expression below and `customUid` (purchase-orders.ts, also read by the checkout return) are the ones
 * the indexes of migration 0010 are built on: PostgreSQL uses an expression index only when a query spells
 * the expression the same way.
 */
/** Both e-mail fields Digistore24 may send, in one lower-cased text (empty after the retention job blanked them). */
const payloadEmails = (alias: string) =>
  sql.raw(
    `lower(coalesce(${alias}.payload->>'email', '') || ' ' || coalesce(${alias}.payload->>'buyer_email', ''))`,
  );

/**
 * Notifications whose buyer e-mail (as sent) or whose account's e-mail contains `needle`: a union of two
 * index-backed lookups (trigram on the payload's e-mails; trigram on users.email, then the uid index).
 */
function emailFilter(needle: string): SQL {
  const pattern = containsPattern(needle);
  return sql`${pn.id} IN (
    SELECT n.id FROM ${pn} n WHERE ${payloadEmails("n")} LIKE ${pattern}
    UNION
    SELECT n.id FROM ${pn} n JOIN ${users} u ON ${customUid("n")} = u.digistore_hash
      WHERE lower(u.email) LIKE ${pattern}
  )`;
}

/** The columns of the notifications table: the raw payload only by `getPaymentNotification`. */
const notificationColumns = {
  id: pn.id,
  receivedAt: pn.receivedAt,
  event: pn.event,
  orderNumber: pn.orderId,
  productId: pn.productId,
  signatureValid: pn.signatureValid,
  outcome: pn.outcome,
  outcomeDetail: pn.outcomeDetail,
  payloadEmail: sql<
    string | null
  >`coalesce(nullif(${pn.payload}->>'email', ''), nullif(${pn.payload}->>'buyer_email', ''))`,
  accountEmail: users.email,
};

/**
 * One page of the support view "Zahlungsmeldungen", newest first, without the raw payload (that comes per
 * notification from `getPaymentNotification`, so a page stays small).
 */
export async function listPaymentNotifications(
  db: Db,
  input: z.output<typeof ZPaymentNotificationListInput>,
) {
  const where = and(
    input.orderNumber ? sql`lower(${pn.orderId}) = ${input.orderNumber.toLowerCase()}` : undefined,
    input.email ? emailFilter(input.email) : undefined,
    input.outcome ? eq(pn.outcome, input.outcome) : undefined,
  );
  const rows = db
    .select(notificationColumns)
    .from(pn)
    .leftJoin(users, sql`${users.digistoreHash} = ${customUid('"payment_notifications"')}`)
    .where(where)
    .orderBy(desc(pn.receivedAt), desc(pn.id));
  return adminPage(
    db,
    { table: pn, where, page: input.page },
    rows.$dynamic(),
    ({ payloadEmail, accountEmail, ...row }) => ({
      ...row,
      outcomeLabel: paymentOutcomeLabel(row.outcome),
      buyerEmail: payloadEmail ?? accountEmail ?? null,
    }),
  );
}

/** One notification with every raw field Digistore24 sent (the support view's "Rohdaten anzeigen"). */
export async function getPaymentNotification(db: Db, id: number) {
  const [row] = await db
    .select({
      id: pn.id,
      receivedAt: pn.receivedAt,
      event: pn.event,
      orderNumber: pn.orderId,
      payload: pn.payload,
    })
    .from(pn)
    .where(eq(pn.id, id));
  if (!row) {
    throw new AppError("NOT_FOUND", `payment notification ${id}`, MSG_PAYMENT_NOTIFICATIONS.notFound);
  }
  return row;
}
