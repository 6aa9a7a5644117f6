import { schema } from "@app/db";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createCongress, createPackage, createUser } from "../src/testing/builders";
import { type ApiProcess, newSecrets, startApi } from "./lib/api-process";
import { type FaultDatabase, startFaultDatabase } from "./lib/database";
import { type Category, delivered, type Purchase, postIpn, signedIpn } from "./lib/ipn";

const { congressPackageOrders, congressTicketOrders, mailOutbox, participations, paymentNotifications } =
  schema;

const ORDERS = 90;
/** concurrent deliveries of the provider */
const CONCURRENCY = 6;
/** the API is killed once this share of the burst has been answered */
const KILL_AT = 0.4;

const secrets = newSecrets();
let database: FaultDatabase;
let api: ApiProcess | undefined;

beforeAll(async () => {
  database = await startFaultDatabase("ipn");
});
afterAll(async () => {
  await api?.stop();
  await database?.destroy();
});

interface Order extends Purchase {
  congressId: number;
  packageIds: number[];
  refunded: boolean;
}

/** Three events with two packages each, and one buyer per order so every grant is counted on its own. */
async function createOrders(): Promise<Order[]> {
  const db = database.handle.db;
  const shops = [];
  for (let s = 0; s < 3; s++) {
    const congress = await createCongress(db, {
      title: `Ausfallkongress ${s}`,
      digistoreIdTicket: 810_000 + s * 2,
      digistoreIdTicketAndPackage: 810_001 + s * 2,
    });
    const packages = [
      await createPackage(db, congress.id, { externalId: 820_000 + s * 2 }),
      await createPackage(db, congress.id, { externalId: 820_001 + s * 2 }),
    ];
    shops.push({ congress, packages });
  }
  const orders: Order[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const shop = shops[i % shops.length];
    const first = shop?.packages[0];
    if (!shop || !first) {
      throw new Error("shop missing");
    }
    const cat = (["pac", "tic", "ticpac"] as const)[Math.floor(i / 3) % 3] as Category;
    const user = await createUser(db, { email: `ipn.${i}@example.com` });
    orders.push({
      userId: user.id,
      email: user.email,
      digistoreHash: user.digistoreHash,
      cat,
      pid: cat === "pac" ? first.id : shop.congress.id,
      productId:
        cat === "pac"
          ? first.externalId
          : cat === "tic"
            ? shop.congress.digistoreIdTicket
            : shop.congress.digistoreIdTicketAndPackage,
      orderId: `CRASH-${i}`,
      transactionId: `TX-CRASH-${i}`,
      congressId: shop.congress.id,
      packageIds: shop.packages.map((p) => p.id),
      refunded: i % 6 === 5,
    });
  }
  return orders;
}

interface Delivery {
  order: Order;
  fields: Record<string, string>;
}

describe("API killed during an IPN burst", () => {
  it("loses no order and duplicates none once the provider has retried", async () => {
    onTestFailed(() => {
      console.log(`API output:\n${api?.output()}`);
    });
    const orders = await createOrders();
    // the burst: every payment, some refunds after it, and some payments delivered twice
    const burst: Delivery[] = [];
    orders.forEach((order, i) => {
      const payment = { order, fields: signedIpn(order, "on_payment", secrets.ipnPassphrase) };
      burst.push(payment);
      if (i % 10 === 0) {
        burst.push(payment);
      }
      if (order.refunded) {
        burst.push({ order, fields: signedIpn(order, "on_refund", secrets.ipnPassphrase) });
      }
    });

    api = await startApi({ databaseUrl: database.url, secrets });
    const port = api.port;
    const killed = api;

    const failed: Delivery[] = [];
    const errors = new Map<string, number>();
    let answered = 0;
    let next = 0;
    const sender = async () => {
      for (let d = burst[next++]; d; d = burst[next++]) {
        const answer = await postIpn(`http://127.0.0.1:${port}`, d.fields);
        if (delivered(answer)) {
          answered += 1;
          if (answered === Math.floor(burst.length * KILL_AT)) {
            // the other senders have requests in flight right now
            killed.child.kill("SIGKILL");
          }
        } else {
          failed.push(d);
          const reason = answer.error ?? String(answer.status);
          errors.set(reason, (errors.get(reason) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    expect((await killed.exited).signal).toBe("SIGKILL");
    // refused connections after the kill, and requests cut off in the middle (reset sockets)
    const summary = JSON.stringify([...errors]);
    expect(errors.get("ECONNREFUSED") ?? 0, summary).toBeGreaterThan(0);
    expect(failed.length - (errors.get("ECONNREFUSED") ?? 0), `none cut off: ${summary}`).toBeGreaterThan(0);
    expect(
      [...errors.keys()].filter((reason) => /^\d+$/.test(reason)),
      summary,
    ).toEqual([]);

    // the provider retries every notification that was not acknowledged, against the restarted API
    api = await startApi({ databaseUrl: database.url, secrets, port });
    let pending = failed.splice(0);
    for (let round = 0; pending.length > 0 && round < 5; round++) {
      const retry: Delivery[] = [];
      let i = 0;
      const retrySender = async () => {
        for (let d = pending[i++]; d; d = pending[i++]) {
          const answer = await postIpn(api?.url ?? "", d.fields);
          if (!delivered(answer)) {
            retry.push(d);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, retrySender));
      pending = retry;
    }
    expect(pending, "notifications still refused after five retry rounds").toHaveLength(0);

    const db = database.handle.db;
    for (const order of orders) {
      const status = order.refunded ? "canceled" : "paid";
      const label = `${order.orderId} (${order.cat}${order.refunded ? ", refunded" : ""})`;
      const tickets = await db
        .select()
        .from(congressTicketOrders)
        .where(eq(congressTicketOrders.externalId, order.orderId));
      const packages = await db
        .select()
        .from(congressPackageOrders)
        .where(eq(congressPackageOrders.externalId, order.orderId));
      const participation = await db
        .select()
        .from(participations)
        .where(and(eq(participations.userId, order.userId), eq(participations.congressId, order.congressId)));
      const mails = await db
        .select({ key: mailOutbox.idempotencyKey })
        .from(mailOutbox)
        .where(like(mailOutbox.idempotencyKey, `order-paid:${order.orderId}:%`));

      if (order.cat === "pac") {
        expect(tickets, label).toHaveLength(0);
        expect(
          packages.map((p) => [p.congressPackageId, p.status]),
          label,
        ).toEqual([[order.pid, status]]);
        expect(participation, label).toHaveLength(0);
      } else {
        expect(
          tickets.map((t) => [t.congressId, t.userId, t.status]),
          label,
        ).toEqual([[order.congressId, order.userId, status]]);
        const expectedPackages = order.cat === "ticpac" ? order.packageIds.map((id) => [id, status]) : [];
        expect(packages.map((p) => [p.congressPackageId, p.status]).sort(), label).toEqual(
          expectedPackages.sort(),
        );
        expect(participation, label).toHaveLength(status === "paid" ? 1 : 0);
      }
      // the confirmation is queued once; a refund delivered before its payment rightly sends none
      if (order.refunded) {
        expect(mails.length, label).toBeLessThanOrEqual(1);
      } else {
        expect(mails, label).toHaveLength(1);
      }
    }

    // no notification was left half-processed: each recorded row carries its final outcome ("recorded":
    // a payment re-delivered after its order's refund, which ended the order for good)
    const notifications = await db
      .select({ outcome: paymentNotifications.outcome })
      .from(paymentNotifications)
      .where(like(paymentNotifications.orderId, "CRASH-%"));
    expect(notifications.length).toBeGreaterThanOrEqual(burst.length);
    expect(notifications.filter((n) => n.outcome !== "processed" && n.outcome !== "recorded")).toEqual([]);
  });
});
