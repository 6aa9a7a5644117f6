import { type DbOrTx, schema } from "@app/db";
import { type CheckoutCategory, parseCustom } from "@app/shared";
import { and, isNotNull, notInArray, sql } from "drizzle-orm";

const { paymentNotifications } = schema;

/**
 * The account's digistore hash named in a notification's `custom` (`uid-<hash>|pid-…|cat-…`, parts in any
 * order), spelled as the index of migration 0010 is built: PostgreSQL uses an expression index only when
 * a query spells the expression the same way.
 */
export const customUid = (alias: string) =>
  sql.raw(`substring(${alias}.custom from '(?:^|[|]) *uid-([A-Za-z0-9-]+)')`);

/**
 * The order numbers of one checkout purchase: those of the payment notifications that named this account,
 * category and product in `custom` and counted for their order (ignored and conflicting ones did not, as in
 * `handleIpn`). The return from the checkout carries no order number, so this is how it finds its orders.
 */
export async function purchaseOrderNumbers(
  db: DbOrTx,
  purchase: { digistoreHash: string; category: CheckoutCategory; productId: number },
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ orderNumber: paymentNotifications.orderId, custom: paymentNotifications.custom })
    .from(paymentNotifications)
    .where(
      and(
        sql`${customUid('"payment_notifications"')} = ${purchase.digistoreHash}`,
        isNotNull(paymentNotifications.orderId),
        notInArray(paymentNotifications.outcome, ["ignored", "conflict"]),
      ),
    );
  const numbers = rows.flatMap(({ orderNumber, custom }) => {
    const named = parseCustom(custom);
    return orderNumber !== null && named?.cat === purchase.category && named.pid === purchase.productId
      ? [orderNumber]
      : [];
  });
  return [...new Set(numbers)];
}
