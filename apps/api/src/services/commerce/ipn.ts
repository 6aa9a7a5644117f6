import { type Db, schema } from "@app/db";
import { AUDIT_ACTION_LABELS, type AuditAction, parseCustom } from "@app/shared";
import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "../../env";
import type { MailDispatcher } from "../../mail/outbox";
import { recordAudit } from "../admin/audit";
import { applyOrder, findProduct, queueOrderMail } from "./grant";
import { orderStatus } from "./order-state";
import { verifyDigistoreSignature } from "./signature";

export interface IpnDeps {
  db: Db;
  env: Pick<Env, "DIGISTORE_IPN_PASSPHRASE" | "APP_URL">;
  log: FastifyBaseLogger;
  mail: MailDispatcher;
}

export interface IpnAnswer {
  status: number;
  /** Digistore24 counts a delivery as done only on 200 with a body starting with OK */
  body: string;
}

const OK: IpnAnswer = { status: 200, body: "OK" };

/**
 * One payment notification: verified, recorded, and applied to the order in one transaction. Deliveries of
 * the same order are serialised (advisory lock), so duplicates and concurrent retries create one order.
 */
export async function handleIpn(deps: IpnDeps, fields: Record<string, string>): Promise<IpnAnswer> {
  if (!verifyDigistoreSignature(fields, deps.env.DIGISTORE_IPN_PASSPHRASE)) {
    deps.log.warn({ event: fields.event, orderId: fields.order_id }, "IPN with an invalid signature refused");
    return { status: 403, body: "ERROR: invalid signature" };
  }
  const event = fields.event ?? "";
  if (event === "connection_test") {
    return OK;
  }
  const orderNumber = fields.order_id ?? "";
  const mailIds = await deps.db.transaction(async (tx) => {
    const { paymentNotifications } = schema;
    if (orderNumber !== "") {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`ipn:${orderNumber}`}))`);
    }
    const [notification] = await tx
      .insert(paymentNotifications)
      .values({
        event,
        orderId: orderNumber || null,
        productId: fields.product_id ?? null,
        custom: fields.custom ?? null,
        signatureValid: true,
        payload: fields,
      })
      .returning({ id: paymentNotifications.id });
    const finish = async (outcome: string, detail: string | null, orderStatus?: string) => {
      await tx
        .update(paymentNotifications)
        .set({ outcome, outcomeDetail: detail, processedAt: new Date() })
        .where(eq(paymentNotifications.id, notification?.id ?? 0));
      // only facts about the order, never the buyer (names, e-mail, address stay in the notification)
      await recordAudit(tx, {
        actor: { kind: "payment-notification" },
        action: ipnAction(event),
        entity: "payment-notification",
        entityId: notification?.id ?? null,
        changes: {
          event,
          orderNumber: orderNumber || null,
          productId: fields.product_id ?? null,
          outcome,
          ...(orderStatus && { orderStatus }),
        },
      });
    };

    const custom = parseCustom(fields.custom);
    if (orderNumber === "" || !custom?.uid) {
      await finish("ignored", "order_id or custom (uid, pid, cat) missing");
      return [];
    }
    const [user] = await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.digistoreHash, custom.uid));
    const product = await findProduct(tx, custom.cat, custom.pid);
    if (!user || !product) {
      await finish(
        "ignored",
        !user ? `unknown user ${custom.uid}` : `unknown product ${custom.cat} ${custom.pid}`,
      );
      return [];
    }
    // custom travels through the buyer's browser: it must name the product that was actually paid for
    if (String(product.checkoutId) !== (fields.product_id ?? "")) {
      await finish(
        "ignored",
        `product_id ${fields.product_id} does not belong to ${custom.cat} ${custom.pid}`,
      );
      return [];
    }

    // the history of this order item: same order number and product, ignored notifications left out
    const history = await tx
      .select({ event: paymentNotifications.event, payload: paymentNotifications.payload })
      .from(paymentNotifications)
      .where(
        and(
          eq(paymentNotifications.orderId, orderNumber),
          eq(paymentNotifications.productId, fields.product_id ?? ""),
          eq(paymentNotifications.signatureValid, true),
          ne(paymentNotifications.outcome, "ignored"),
        ),
      );
    const status = orderStatus(
      history.map((h) => ({ event: h.event, transactionId: h.payload.transaction_id ?? "" })),
    );
    if (status === null) {
      await finish("recorded", null);
      return [];
    }
    const target = { category: custom.cat, userId: user.id, productId: custom.pid, orderNumber };
    const { newlyPaid } = await applyOrder(tx, target, status);
    await finish("processed", `order ${status}`, status);
    if (!newlyPaid) {
      return [];
    }
    const key = `order-paid:${orderNumber}:${custom.cat}:${custom.pid}:${fields.transaction_id ?? ""}`;
    return [await queueOrderMail(tx, deps.env.APP_URL, target, product, key)];
  });
  await deps.mail.dispatch(mailIds);
  return OK;
}

/** `on_payment` → `ipn.payment`, `payment_denial` → `ipn.payment-denial`; unknown events → `ipn.other`. */
function ipnAction(event: string): AuditAction {
  const action = `ipn.${event.replace(/^on_/, "").replace(/_/g, "-")}`;
  return action in AUDIT_ACTION_LABELS ? (action as AuditAction) : "ipn.other";
}
