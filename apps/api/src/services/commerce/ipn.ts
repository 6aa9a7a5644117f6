import { type Db, schema } from "@app/db";
import {
  AUDIT_ACTION_LABELS,
  type AuditAction,
  decideOrder,
  END_REASON_LABELS,
  type PaymentOutcome,
  parseCustom,
  paymentEffect,
} from "@app/shared";
import { and, asc, eq, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "../../env";
import type { MailDispatcher } from "../../mail-delivery/outbox";
import { countIpn } from "../../metrics/counters";
import { recordAudit } from "../admin/audit";
import type { Clock } from "../deps";
import { applyOrder, findProduct, orderOwner, queueOrderMail } from "./grant";
import { verifyDigistoreSignature } from "./signature";

export interface IpnDeps {
  db: Db;
  env: Pick<Env, "DIGISTORE_IPN_PASSPHRASE" | "APP_URL">;
  log: FastifyBaseLogger;
  mail: MailDispatcher;
  clock: Clock;
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
 * An order is its `order_id` and product, the one identifier Digistore24 keeps across the payment, its
 * refund and chargeback (each a transaction of its own); what each event does is the decision table in
 * @app/shared (ADR 0025).
 */
export async function handleIpn(deps: IpnDeps, fields: Record<string, string>): Promise<IpnAnswer> {
  if (!verifyDigistoreSignature(fields, deps.env.DIGISTORE_IPN_PASSPHRASE)) {
    deps.log.warn({ event: fields.event, orderId: fields.order_id }, "IPN with an invalid signature refused");
    countIpn("invalid_signature");
    return { status: 403, body: "ERROR: invalid signature" };
  }
  const event = fields.event ?? "";
  if (event === "connection_test") {
    countIpn("connection_test");
    return OK;
  }
  const orderNumber = fields.order_id ?? "";
  // counted for /metrics once the transaction has committed
  let counted: PaymentOutcome = "ignored";
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
    const finish = async (outcome: PaymentOutcome, detail: string | null, orderStatus?: string) => {
      counted = outcome;
      await tx
        .update(paymentNotifications)
        .set({ outcome, outcomeDetail: detail, processedAt: deps.clock.now() })
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
      await finish("ignored", "order_id oder custom (uid, pid, cat) fehlt");
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
        !user ? `unbekanntes Konto ${custom.uid}` : `unbekanntes Produkt ${custom.cat} ${custom.pid}`,
      );
      return [];
    }
    // custom travels through the buyer's browser: it must name the product that was actually paid for
    if (String(product.checkoutId) !== (fields.product_id ?? "")) {
      await finish("ignored", `product_id ${fields.product_id} gehört nicht zu ${custom.cat} ${custom.pid}`);
      return [];
    }

    const target = { category: custom.cat, userId: user.id, productId: custom.pid, orderNumber };
    // an order stays with the account of the notification that created it; custom travels through the
    // buyer's browser, so another account named later is a conflict for the admins, never a transfer
    const owner = await orderOwner(tx, target);
    if (owner !== undefined && owner !== user.id) {
      await finish("conflict", `Bestellung gehört Konto ${owner}, die Meldung nennt Konto ${user.id}`);
      return [];
    }
    const effect = paymentEffect(event);
    if (effect.kind === "record") {
      await finish("recorded", null);
      return [];
    }
    // every event of this order so far, in order of arrival; ignored and conflicting ones left out
    const history = await tx
      .select({ event: paymentNotifications.event })
      .from(paymentNotifications)
      .where(
        and(
          eq(paymentNotifications.orderId, orderNumber),
          eq(paymentNotifications.productId, fields.product_id ?? ""),
          eq(paymentNotifications.signatureValid, true),
          notInArray(paymentNotifications.outcome, ["ignored", "conflict"]),
        ),
      )
      .orderBy(asc(paymentNotifications.id));
    const decision = decideOrder(history.map((h) => h.event));
    if (decision === null) {
      await finish("recorded", null);
      return [];
    }
    const endReason = decision.status === "canceled" ? decision.endReason : null;
    const { newlyPaid } = await applyOrder(tx, target, decision.status, endReason);
    if (endReason && effect.kind === "grant") {
      // ended is forever: a payment on an ended order (a late or re-sent delivery) is shown, never granted
      await finish(
        "recorded",
        `Zahlung nicht freigeschaltet: Bestellung beendet (${END_REASON_LABELS[endReason]})`,
        decision.status,
      );
      return [];
    }
    await finish(
      "processed",
      endReason ? `Zugang beendet: ${END_REASON_LABELS[endReason]}` : "Bestellung bezahlt",
      decision.status,
    );
    if (!newlyPaid) {
      return [];
    }
    // one confirmation per order: the order can become paid only once
    const key = `order-paid:${orderNumber}:${custom.cat}:${custom.pid}`;
    return [await queueOrderMail(tx, deps.env.APP_URL, target, product, key)];
  });
  countIpn(counted);
  await deps.mail.dispatch(mailIds);
  return OK;
}

/** `on_payment` → `ipn.payment`, `payment_denial` → `ipn.payment-denial`; unknown events → `ipn.other`. */
function ipnAction(event: string): AuditAction {
  const action = `ipn.${event.replace(/^on_/, "").replace(/_/g, "-")}`;
  return action in AUDIT_ACTION_LABELS ? (action as AuditAction) : "ipn.other";
}
