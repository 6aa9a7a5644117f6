import { schema } from "@app/db";
import { and, eq, inArray, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCongress, createPackage, createUser } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { digistoreSignature } from "./signature";

/**
 * Random deliveries of Digistore24 notifications (payments, refunds, chargebacks, denials, duplicates, a
 * second payment transaction, notifications naming another account) for two orders of one buyer, in any
 * order, partly at once and spread over two API instances on one database. After every batch and at the
 * end the invariants of ADR 0025 must hold.
 */
const { congressPackageOrders, congressTicketOrders, mailOutbox, participations } = schema;

let a: TestApp;
let b: TestApp;
let congressId: number;
let packageId: number;
const checkout = { pac: 0, tic: 0 };

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ sameDatabaseAs: a });
  const congress = await createCongress(a.db.db, {
    title: "Kongress Eigenschaften",
    digistoreIdTicket: 910_001,
    digistoreIdTicketAndPackage: 910_002,
  });
  const pkg = await createPackage(a.db.db, congress.id, { name: "Paket Eigenschaften" });
  congressId = congress.id;
  packageId = pkg.id;
  checkout.pac = pkg.externalId;
  checkout.tic = congress.digistoreIdTicket;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const KINDS = {
  payment: { event: "on_payment", tx: "P1" },
  // another transaction on the same order, as a re-sent or later payment
  payment2: { event: "on_payment", tx: "P2" },
  refund: { event: "on_refund", tx: "R" },
  chargeback: { event: "on_chargeback", tx: "C" },
  denial: { event: "payment_denial", tx: "D" },
} as const;
type Kind = keyof typeof KINDS;
const END_REASON_OF: Record<string, string> = {
  on_refund: "refund",
  on_chargeback: "chargeback",
  payment_denial: "denial",
};
type Category = keyof typeof checkout;

/** one notification: which order, what, naming the other account, to which instance, after a barrier */
const delivery = fc.record({
  order: fc.constantFrom<0 | 1>(0, 1),
  kind: fc.constantFrom<Kind>("payment", "payment", "payment2", "refund", "chargeback", "denial"),
  foreign: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
  instance: fc.constantFrom<0 | 1>(0, 1),
  barrier: fc.boolean(),
});
const scenario = fc.record({
  categories: fc.tuple(fc.constantFrom<Category>("pac", "tic"), fc.constantFrom<Category>("pac", "tic")),
  deliveries: fc.array(delivery, { minLength: 1, maxLength: 10 }),
});

let run = 0;

function fields(orderId: string, cat: Category, kind: Kind, hash: string): Record<string, string> {
  const { event, tx } = KINDS[kind];
  const productId = cat === "pac" ? packageId : congressId;
  const base: Record<string, string> = {
    event,
    api_mode: "live",
    order_id: orderId,
    product_id: String(checkout[cat]),
    transaction_id: `${orderId}-${tx}`,
    amount: "49.00",
    currency: "EUR",
    buyer_first_name: "Jürgen",
    buyer_last_name: "Müßig",
    custom: `uid-${hash}|pid-${productId}|cat-${cat}`,
  };
  if (tx !== "P1" && tx !== "P2") {
    base.parent_transaction_id = `${orderId}-P1`;
  }
  return { ...base, sha_sign: digistoreSignature(base, a.env.DIGISTORE_IPN_PASSPHRASE) };
}

async function send(instance: TestApp, body: Record<string, string>): Promise<void> {
  const res = await instance.app.inject({
    method: "POST",
    url: "/api/digistore/ipn",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(body).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).toBe("OK");
}

/** Every order row with one of the order numbers: [number, user, status, end reason]. */
async function ordersOf(orderIds: string[]) {
  const db = a.db.db;
  const rows = [
    ...(await db
      .select()
      .from(congressPackageOrders)
      .where(inArray(congressPackageOrders.externalId, orderIds))),
    ...(await db
      .select()
      .from(congressTicketOrders)
      .where(inArray(congressTicketOrders.externalId, orderIds))),
  ];
  return rows.map((r) => ({
    orderId: r.externalId,
    userId: r.userId,
    status: r.status,
    endReason: r.endReason,
  }));
}

it("access is granted exactly when a payment arrived and nothing ended the order; nothing else leaks", async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ categories, deliveries }) => {
      const n = ++run;
      const owner = await createUser(a.db.db, { email: `eigen.${n}.a@example.com` });
      const other = await createUser(a.db.db, { email: `eigen.${n}.b@example.com` });
      const orderIds = [`PROP-${n}-0`, `PROP-${n}-1`];

      // the first notification of an order names its owner and is processed alone: the order is theirs
      const ownerSeen = [false, false];
      const plan = deliveries.map((d) => {
        const foreign = d.foreign && ownerSeen[d.order] === true;
        const first = !ownerSeen[d.order] && !foreign;
        ownerSeen[d.order] ||= !foreign;
        return { ...d, foreign, barrier: d.barrier || first, alone: first };
      });

      const endedOnce = new Set<string>();
      const checkEndedStays = async () => {
        for (const row of await ordersOf(orderIds)) {
          if (endedOnce.has(row.orderId)) {
            expect(row.status, `${row.orderId} was ended and must stay ended`).toBe("canceled");
          }
          if (row.status === "canceled") {
            endedOnce.add(row.orderId);
          }
        }
      };

      let batch: Promise<void>[] = [];
      for (const d of plan) {
        if (d.barrier && batch.length > 0) {
          await Promise.all(batch);
          batch = [];
          await checkEndedStays();
        }
        const user = d.foreign ? other : owner;
        const body = fields(orderIds[d.order] ?? "", categories[d.order], d.kind, user.digistoreHash ?? "");
        batch.push(send(d.instance === 0 ? a : b, body));
        if (d.alone) {
          await Promise.all(batch);
          batch = [];
        }
      }
      await Promise.all(batch);
      await checkEndedStays();

      // the model: what the owner's notifications of each order say
      const expected = orderIds.map((orderId, i) => {
        const own = plan.filter((d) => d.order === i && !d.foreign).map((d) => KINDS[d.kind].event);
        const ended = own.filter((e) => e !== "on_payment");
        return {
          orderId,
          exists: own.length > 0,
          paid: own.includes("on_payment") && ended.length === 0,
          endReasons: ended.map((e) => END_REASON_OF[e]),
        };
      });

      const rows = await ordersOf(orderIds);
      // nothing moves between users: every row is the owner's, the other account has nothing
      expect(rows.every((r) => r.userId === owner.id)).toBe(true);
      for (const e of expected) {
        const mine = rows.filter((r) => r.orderId === e.orderId);
        // one order per order_id and product
        expect(mine, e.orderId).toHaveLength(e.exists ? 1 : 0);
        if (e.exists) {
          expect(mine[0]?.status, e.orderId).toBe(e.paid ? "paid" : "canceled");
          if (!e.paid) {
            expect(e.endReasons, e.orderId).toContain(mine[0]?.endReason);
          }
        }
      }

      // access: the package for pac orders, the participation for tic orders (any paid ticket covers it)
      const paidPac = expected.some((e, i) => categories[i] === "pac" && e.paid);
      const paidTic = expected.some((e, i) => categories[i] === "tic" && e.paid);
      const qualified = await a.app.inject({
        method: "GET",
        url: `/api/congress-package/is-user-qualified/${packageId}`,
        headers: { authorization: `Bearer ${await a.tokenFor(owner.id)}` },
      });
      expect(qualified.json().isQualified).toBe(paidPac);
      const taking = await a.db.db
        .select()
        .from(participations)
        .where(and(eq(participations.userId, owner.id), eq(participations.congressId, congressId)));
      expect(taking).toHaveLength(paidTic ? 1 : 0);

      // at most one "paid" mail per order, exactly one for a paid order; none for the other account
      for (const e of expected) {
        const mails = await a.db.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.idempotencyKey, `order-paid:${e.orderId}:%`));
        expect(mails.length, e.orderId).toBeLessThanOrEqual(1);
        if (e.paid) {
          expect(mails, e.orderId).toHaveLength(1);
        }
      }
      expect(await a.db.db.select().from(mailOutbox).where(eq(mailOutbox.userId, other.id))).toHaveLength(0);
      expect(
        await a.db.db.select().from(participations).where(eq(participations.userId, other.id)),
      ).toHaveLength(0);
    }),
    { numRuns: 500, seed: 20261125, endOnFailure: true },
  );
}, 600_000);
