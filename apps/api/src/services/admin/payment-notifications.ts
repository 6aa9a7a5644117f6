import { type Db, schema } from "@app/db";
import {
  ADMIN_PAGE_SIZE,
  MSG_PAYMENT_NOTIFICATIONS,
  paymentOutcomeLabel,
  type ZPaymentNotificationListInput,
} from "@app/shared";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { containsPattern } from "../../lib/like";
import { boundedCount } from "../../lib/paging";

const { paymentNotifications: pn, users } = schema;

/*
 * The two expressions below are the ones the indexes of migration 0010 are built on: PostgreSQL uses an
 * expression index only when a query spells the expression the same way.
 */
/** Both e-mail fields Digistore24 may send, in one lower-cased text (empty after the retention job blanked them). */
const payloadEmails = (alias: string) =>
  sql.raw(
    `lower(coalesce(${alias}.payload->>'email', '') || ' ' || coalesce(${alias}.payload->>'buyer_email', ''))`,
  );
/** The account's digistore hash named in `custom` (`uid-<hash>|pid-…|cat-…`, parts in any order). */
const customUid = (alias: string) =>
  sql.raw(`substring(${alias}.custom from '(?:^|[|]) *uid-([A-Za-z0-9-]+)')`);

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

/**
 * One page of the support view "Zahlungsmeldungen", newest first, without the raw payload (that comes per
 * notification from `getPaymentNotification`, so a page stays small).
 */
export async function listPaymentNotifications(
  db: Db,
  input: z.output<typeof ZPaymentNotificationListInput>,
) {
  const filters: SQL[] = [];
  if (input.orderNumber) {
    filters.push(sql`lower(${pn.orderId}) = ${input.orderNumber.toLowerCase()}`);
  }
  if (input.email) {
    filters.push(emailFilter(input.email));
  }
  if (input.outcome) {
    filters.push(eq(pn.outcome, input.outcome));
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const offset = (input.page - 1) * ADMIN_PAGE_SIZE;
  const { total, exact } = await boundedCount(db, pn, where, offset);
  const rows = await db
    .select({
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
    })
    .from(pn)
    .leftJoin(users, sql`${users.digistoreHash} = ${customUid('"payment_notifications"')}`)
    .where(where)
    .orderBy(desc(pn.receivedAt), desc(pn.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset(offset);
  const items = rows.map(({ payloadEmail, accountEmail, ...row }) => ({
    ...row,
    outcomeLabel: paymentOutcomeLabel(row.outcome),
    buyerEmail: payloadEmail ?? accountEmail ?? null,
  }));
  return { items, total, totalExact: exact, page: input.page, pageSize: ADMIN_PAGE_SIZE };
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
