import { schema } from "@app/db";
import { FAKE_ORDER_NUMBER } from "@app/shared";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCongress, createPackage, createUser, multipart, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import type { CapturedMail } from "../../testing/smtp";
import { digistoreSignature } from "./signature";

const {
  congressPackageOrders,
  congressTicketOrders,
  mailOutbox,
  participations,
  paymentNotifications,
  users,
} = schema;

type User = typeof users.$inferSelect;
type Category = "pac" | "tic" | "ticpac";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.db.db;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

// ---------------------------------------------------------------------------------------------------------
// data

interface Shop {
  congress: typeof schema.congresses.$inferSelect;
  packages: (typeof schema.congressPackages.$inferSelect)[];
}

/** A congress with its own ticket and ticket+package checkout ids and `packageCount` packages. */
async function shop(packageCount = 2): Promise<Shop> {
  const n = ++seq;
  const congress = await createCongress(db(), {
    title: `Kongress Kasse ${n}`,
    digistoreIdTicket: 700_000 + n * 2,
    digistoreIdTicketAndPackage: 700_001 + n * 2,
  });
  const packages = [];
  for (let i = 0; i < packageCount; i++) {
    packages.push(await createPackage(db(), congress.id, { name: `Kassenpaket ${n}-${i + 1}` }));
  }
  return { congress, packages };
}

const buyer = () => createUser(db(), { email: `kaeufer.${unique()}@example.com` });

interface Purchase {
  user: User;
  cat: Category;
  /** our id: package for pac, congress for tic and ticpac */
  pid: number;
  /** the checkout product id */
  productId: number;
  orderId: string;
  transactionId: string;
}

/** A purchase of the shop's product of that category (pac: its first package). */
function purchase(user: User, s: Shop, cat: Category): Purchase {
  const pkg = s.packages[0];
  const [pid, productId] =
    cat === "pac"
      ? [pkg?.id ?? 0, pkg?.externalId ?? 0]
      : cat === "tic"
        ? [s.congress.id, s.congress.digistoreIdTicket]
        : [s.congress.id, s.congress.digistoreIdTicketAndPackage];
  const id = unique();
  return { user, cat, pid, productId, orderId: `ORD-${id}`, transactionId: `TX-${id}` };
}

/** A notification as Digistore24 sends it, with umlauts, spaces, `+` and `&` in the values. */
function ipnFields(
  p: Purchase,
  event = "on_payment",
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    event,
    api_mode: "live",
    order_id: p.orderId,
    order_item_id: "1",
    product_id: String(p.productId),
    transaction_id: p.transactionId,
    payment_id: `PAY-${p.transactionId}`,
    amount: "49.00",
    currency: "EUR",
    email: p.user.email,
    buyer_email: p.user.email,
    buyer_first_name: "Jörg Peter",
    buyer_last_name: "Müller-Lüdenscheidt",
    address_street: "Hauptstr. 1 & 2",
    product_name: "Kongress + Paket (50% Rabatt)",
    voucher_code: "",
    custom: `uid-${p.user.digistoreHash}|pid-${p.pid}|cat-${p.cat}`,
    ...extra,
  };
}

const passphrase = () => t.env.DIGISTORE_IPN_PASSPHRASE;

const signed = (fields: Record<string, string>, options: { uppercaseKeys?: boolean } = {}) => ({
  ...fields,
  sha_sign: digistoreSignature(fields, passphrase(), options),
});

/** Posts the fields as they are (no signing). */
const postIpn = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/digistore/ipn",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });

/** Signs and posts; expects Digistore's success answer. */
async function ipn(p: Purchase, event = "on_payment", extra: Record<string, string> = {}): Promise<void> {
  const res = await postIpn(signed(ipnFields(p, event, extra)));
  expect(res.statusCode, `${event} ${p.orderId}: ${res.body}`).toBe(200);
  expect(res.body.startsWith("OK")).toBe(true);
}

/**
 * A refund, chargeback or denial as Digistore24 sends it: a transaction of its own on the same order_id,
 * the payment's transaction id as parent_transaction_id (or, as the docs allow, not at all).
 */
const withdraw = (p: Purchase, event: string, { parent = true } = {}) =>
  ipn(p, event, {
    transaction_id: `${p.transactionId}-${event}`,
    ...(parent ? { parent_transaction_id: p.transactionId } : {}),
  });

// ---------------------------------------------------------------------------------------------------------
// reading back

const ticketOrdersOf = (userId: number) =>
  db().select().from(congressTicketOrders).where(eq(congressTicketOrders.userId, userId));
const packageOrdersOf = (userId: number) =>
  db().select().from(congressPackageOrders).where(eq(congressPackageOrders.userId, userId));
const participationsOf = (userId: number) =>
  db().select().from(participations).where(eq(participations.userId, userId));
/** in order of arrival (an UPDATE moves a row, so the table's own order is none) */
const notificationsOf = (orderId: string) =>
  db()
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.orderId, orderId))
    .orderBy(asc(paymentNotifications.id));
const outboxOf = (userIds: number[]) =>
  db().select().from(mailOutbox).where(inArray(mailOutbox.userId, userIds));

async function ordersWithNumber(orderId: string) {
  const tickets = await db()
    .select()
    .from(congressTicketOrders)
    .where(eq(congressTicketOrders.externalId, orderId));
  const packages = await db()
    .select()
    .from(congressPackageOrders)
    .where(eq(congressPackageOrders.externalId, orderId));
  return [...tickets, ...packages];
}

const isTo = (mail: CapturedMail, email: string) => mail.to === email || mail.to.endsWith(`<${email}>`);

/** Waits until `count` mails reached `email`, then a little longer to see that no further one follows. */
async function mailsTo(email: string, count: number, settleMs = 1500): Promise<CapturedMail[]> {
  const received = () => t.smtp.mails.filter((m) => isTo(m, email));
  const until = Date.now() + 20_000;
  while (received().length < count && Date.now() < until) {
    await sleep(100);
  }
  await sleep(settleMs);
  return received();
}

const auth = async (userId: number, roles?: Parameters<TestApp["tokenFor"]>[1]) => ({
  authorization: `Bearer ${await t.tokenFor(userId, roles)}`,
});

async function isQualified(userId: number, packageId: number): Promise<boolean> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/congress-package/is-user-qualified/${packageId}`,
    headers: await auth(userId),
  });
  expect(res.statusCode).toBe(200);
  return res.json().isQualified;
}

let admin: User;
beforeAll(async () => {
  admin = await createUser(db(), {
    email: `admin.${unique()}@example.com`,
    roles: ["ROLE_USER", "ROLE_ADMIN"],
  });
});
const adminHeaders = () => auth(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);

// ---------------------------------------------------------------------------------------------------------

describe("IPN on_payment per category", { timeout: 30_000 }, () => {
  it("pac: creates one paid package order and mails the package confirmation once", async () => {
    const s = await shop(2);
    const user = await buyer();
    const p = purchase(user, s, "pac");
    await ipn(p);

    const pkgOrders = await packageOrdersOf(user.id);
    expect(pkgOrders).toHaveLength(1);
    expect(pkgOrders[0]).toMatchObject({
      congressPackageId: s.packages[0]?.id,
      externalId: p.orderId,
      status: "paid",
    });
    expect(await ticketOrdersOf(user.id)).toHaveLength(0);
    expect(await participationsOf(user.id)).toHaveLength(0);
    expect(await isQualified(user.id, s.packages[0]?.id ?? 0)).toBe(true);
    expect(await isQualified(user.id, s.packages[1]?.id ?? 0)).toBe(false);

    const mails = await mailsTo(user.email, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Ihr Kongresspaket: ${s.packages[0]?.name}`);
    const [notification] = await notificationsOf(p.orderId);
    expect(notification).toMatchObject({ event: "on_payment", outcome: "processed", signatureValid: true });
  });

  it("tic: creates one paid ticket order plus the participation and mails the ticket confirmation once", async () => {
    const s = await shop(2);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    await ipn(p);

    const tickets = await ticketOrdersOf(user.id);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ congressId: s.congress.id, externalId: p.orderId, status: "paid" });
    expect((await participationsOf(user.id)).map((r) => r.congressId)).toEqual([s.congress.id]);
    expect(await packageOrdersOf(user.id)).toHaveLength(0);

    const mails = await mailsTo(user.email, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Ihr Ticket: ${s.congress.title}`);
  });

  it("ticpac: creates the ticket order, a package order for every package of the congress and the participation; one mail", async () => {
    const s = await shop(3);
    const other = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "ticpac");
    await ipn(p);

    const tickets = await ticketOrdersOf(user.id);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ congressId: s.congress.id, externalId: p.orderId, status: "paid" });
    const pkgOrders = await packageOrdersOf(user.id);
    expect(pkgOrders.map((o) => o.congressPackageId).sort()).toEqual(s.packages.map((x) => x.id).sort());
    for (const order of pkgOrders) {
      expect(order).toMatchObject({ externalId: p.orderId, status: "paid" });
    }
    expect((await participationsOf(user.id)).map((r) => r.congressId)).toEqual([s.congress.id]);
    for (const pkg of s.packages) {
      expect(await isQualified(user.id, pkg.id)).toBe(true);
    }
    expect(await isQualified(user.id, other.packages[0]?.id ?? 0)).toBe(false);

    const mails = await mailsTo(user.email, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Ihr Ticket und Kongresspaket: ${s.congress.title}`);
  });
});

describe("checkout return: what this purchase's payment notification unlocked", { timeout: 30_000 }, () => {
  const returnState = async (p: Purchase) => {
    const res = await trpcQuery(
      t,
      "checkout.getReturnState",
      { category: p.cat, id: p.pid },
      { token: await t.tokenFor(p.user.id) },
    );
    expect(res.status, res.body).toBe(200);
    return res.data;
  };

  it("ticket and package: nothing before the notification, even with a ticket bought before; both once it arrived", async () => {
    const s = await shop(1);
    const user = await buyer();
    // the ticket bought on its own earlier is another purchase: it unlocks nothing of this one
    await ipn(purchase(user, s, "tic"));
    const p = purchase(user, s, "ticpac");
    expect(await returnState(p)).toEqual({
      name: s.congress.title,
      paid: false,
      unlocked: { ticket: false, packages: [] },
      eventHasPackage: true,
    });
    await ipn(p);
    expect(await returnState(p)).toEqual({
      name: s.congress.title,
      paid: true,
      unlocked: { ticket: true, packages: [s.packages[0]?.name] },
      eventHasPackage: true,
    });
  });

  it("ticket and package of an event without a package: only the ticket, and it says there is none", async () => {
    const s = await shop(0);
    const user = await buyer();
    const p = purchase(user, s, "ticpac");
    await ipn(p);
    expect(await returnState(p)).toMatchObject({
      paid: true,
      unlocked: { ticket: true, packages: [] },
      eventHasPackage: false,
    });
    // a package made after the payment was not part of it
    await createPackage(db(), s.congress.id);
    expect(await returnState(p)).toMatchObject({
      paid: true,
      unlocked: { ticket: true, packages: [] },
      eventHasPackage: true,
    });
  });

  it("a refunded purchase unlocks nothing; a package return names the package once its notification arrived", async () => {
    const s = await shop(1);
    const user = await buyer();
    const ticpac = purchase(user, s, "ticpac");
    await ipn(ticpac);
    await withdraw(ticpac, "on_refund");
    expect(await returnState(ticpac)).toMatchObject({
      paid: false,
      unlocked: { ticket: false, packages: [] },
    });

    const pac = purchase(user, s, "pac");
    expect(await returnState(pac)).toMatchObject({ name: s.packages[0]?.name, paid: false });
    await ipn(pac);
    expect(await returnState(pac)).toEqual({
      name: s.packages[0]?.name,
      paid: true,
      unlocked: { ticket: false, packages: [s.packages[0]?.name] },
      eventHasPackage: true,
    });
  });
});

describe("IPN withdrawals", { timeout: 30_000 }, () => {
  it.each(["on_refund", "on_chargeback", "payment_denial"])(
    "%s cancels pac, tic and ticpac orders and takes the access away",
    async (event) => {
      const s = await shop(2);
      const pacUser = await buyer();
      const ticUser = await buyer();
      const ticpacUser = await buyer();
      const pac = purchase(pacUser, s, "pac");
      const tic = purchase(ticUser, s, "tic");
      const ticpac = purchase(ticpacUser, s, "ticpac");
      for (const p of [pac, tic, ticpac]) {
        await ipn(p);
      }
      expect(await isQualified(pacUser.id, s.packages[0]?.id ?? 0)).toBe(true);
      expect(await participationsOf(ticUser.id)).toHaveLength(1);
      expect(await participationsOf(ticpacUser.id)).toHaveLength(1);

      for (const p of [pac, tic, ticpac]) {
        await withdraw(p, event);
      }

      const pacOrders = await packageOrdersOf(pacUser.id);
      expect(pacOrders.map((o) => o.status)).toEqual(["canceled"]);
      expect(await isQualified(pacUser.id, s.packages[0]?.id ?? 0)).toBe(false);

      expect((await ticketOrdersOf(ticUser.id)).map((o) => o.status)).toEqual(["canceled"]);
      expect(await participationsOf(ticUser.id)).toHaveLength(0);

      expect((await ticketOrdersOf(ticpacUser.id)).map((o) => o.status)).toEqual(["canceled"]);
      const ticpacPackages = await packageOrdersOf(ticpacUser.id);
      expect(ticpacPackages).toHaveLength(2);
      expect(ticpacPackages.map((o) => o.status)).toEqual(["canceled", "canceled"]);
      expect(await participationsOf(ticpacUser.id)).toHaveLength(0);
      for (const pkg of s.packages) {
        expect(await isQualified(ticpacUser.id, pkg.id)).toBe(false);
      }

      const reason = { on_refund: "refund", on_chargeback: "chargeback", payment_denial: "denial" }[event];
      const label = {
        on_refund: "Erstattung",
        on_chargeback: "Rückbuchung",
        payment_denial: "Zahlung abgelehnt",
      }[event];
      expect(pacOrders[0]?.endReason).toBe(reason);
      expect((await ticketOrdersOf(ticpacUser.id))[0]?.endReason).toBe(reason);
      expect(ticpacPackages.map((o) => o.endReason)).toEqual([reason, reason]);
      const [last] = (await notificationsOf(tic.orderId)).filter((n) => n.event === event);
      expect(last).toMatchObject({ outcome: "processed", outcomeDetail: `Zugang beendet: ${label}` });
    },
  );

  it("a refund as Digistore24 sends it (payment 7001, refund 7002 on the same order_id) ends the access", async () => {
    const s = await shop(1);
    for (const parent of [true, false]) {
      const user = await buyer();
      const p = { ...purchase(user, s, "pac"), transactionId: "7001" };
      await ipn(p);
      expect(await isQualified(user.id, s.packages[0]?.id ?? 0)).toBe(true);
      await ipn(p, "on_refund", {
        transaction_id: "7002",
        ...(parent ? { parent_transaction_id: "7001" } : {}),
      });
      expect((await packageOrdersOf(user.id)).map((o) => [o.status, o.endReason])).toEqual([
        ["canceled", "refund"],
      ]);
      expect(await isQualified(user.id, s.packages[0]?.id ?? 0)).toBe(false);
    }
  });

  it("keeps the participation when another paid ticket order of the same user still covers the congress", async () => {
    const s = await shop(0);
    const user = await buyer();
    const first = purchase(user, s, "tic");
    const second = purchase(user, s, "tic");
    await ipn(first);
    await ipn(second);
    await withdraw(first, "on_refund");
    expect((await ticketOrdersOf(user.id)).map((o) => o.status).sort()).toEqual(["canceled", "paid"]);
    expect(await participationsOf(user.id)).toHaveLength(1);
    await withdraw(second, "on_chargeback");
    expect(await participationsOf(user.id)).toHaveLength(0);
  });
});

describe("IPN duplicates and order of arrival", { timeout: 30_000 }, () => {
  it("a duplicate on_payment gives one order and one mail", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    await ipn(p);
    await ipn(p);
    await ipn(p);

    expect(await ticketOrdersOf(user.id)).toHaveLength(1);
    expect(await participationsOf(user.id)).toHaveLength(1);
    expect(await notificationsOf(p.orderId)).toHaveLength(3);
    expect(await outboxOf([user.id])).toHaveLength(1);
    expect(await mailsTo(user.email, 1)).toHaveLength(1);
  });

  it("a refund before its payment leaves the order canceled without participation or mail", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    await withdraw(p, "on_refund");
    await ipn(p);

    expect((await ticketOrdersOf(user.id)).map((o) => o.status)).toEqual(["canceled"]);
    expect(await participationsOf(user.id)).toHaveLength(0);
    expect(await outboxOf([user.id])).toHaveLength(0);
  });

  it("a late duplicate payment after the refund stays canceled", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "ticpac");
    await ipn(p);
    await withdraw(p, "on_refund");
    await ipn(p);

    expect((await ticketOrdersOf(user.id)).map((o) => o.status)).toEqual(["canceled"]);
    expect((await packageOrdersOf(user.id)).map((o) => o.status)).toEqual(["canceled"]);
    expect(await participationsOf(user.id)).toHaveLength(0);
    expect(await isQualified(user.id, s.packages[0]?.id ?? 0)).toBe(false);
    expect(await outboxOf([user.id])).toHaveLength(1);
  });

  it("ended is forever: a payment with a new transaction after a refund, chargeback or denial grants nothing", async () => {
    const s = await shop(1);
    for (const event of ["on_refund", "on_chargeback", "payment_denial"]) {
      const user = await buyer();
      const p = purchase(user, s, "tic");
      await ipn(p);
      await withdraw(p, event);
      // Digistore24 re-sends old notifications by hand, and another transaction on the order comes along
      await ipn(p);
      await ipn({ ...p, transactionId: `${p.transactionId}-2` });

      const tickets = await ticketOrdersOf(user.id);
      expect(tickets.map((o) => o.status)).toEqual(["canceled"]);
      expect(tickets[0]?.endReason).toBeTruthy();
      expect(await participationsOf(user.id)).toHaveLength(0);
      expect(await outboxOf([user.id])).toHaveLength(1);
      const payments = (await notificationsOf(p.orderId)).filter((n) => n.event === "on_payment");
      expect(payments.map((n) => n.outcome)).toEqual(["processed", "recorded", "recorded"]);
      expect(payments[2]?.outcomeDetail).toMatch(/^Zahlung nicht freigeschaltet: Bestellung beendet/);
    }
  });

  it.each([
    "on_payment_missed",
    "on_rebill_cancelled",
    "on_rebill_resumed",
    "last_paid_day",
    "on_affiliation",
    "on_something_new",
  ])("%s is recorded only: 200 OK, the paid order and its access stay", async (event) => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    await ipn(p);
    await ipn(p, event, { transaction_id: `${p.transactionId}-${event}` });
    expect((await ticketOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
    expect(await participationsOf(user.id)).toHaveLength(1);
    const [recorded] = (await notificationsOf(p.orderId)).filter((n) => n.event === event);
    expect(recorded).toMatchObject({ outcome: "recorded" });
    expect(recorded?.payload.event).toBe(event);
  });
});

describe("IPN and the order's account", { timeout: 30_000 }, () => {
  it("a later notification naming another account is a conflict and moves nothing", async () => {
    const s = await shop(1);
    const owner = await buyer();
    const other = await buyer();
    for (const cat of ["pac", "tic", "ticpac"] as const) {
      const p = purchase(owner, s, cat);
      await ipn(p);
      const foreign = { ...p, user: other };
      await ipn(foreign);
      await withdraw(foreign, "on_refund");

      const notifications = await notificationsOf(p.orderId);
      expect(notifications.map((n) => n.outcome)).toEqual(["processed", "conflict", "conflict"]);
    }
    // pac's package and the package of the ticpac order (the shop has one)
    expect((await packageOrdersOf(owner.id)).map((o) => o.status)).toEqual(["paid", "paid"]);
    expect((await ticketOrdersOf(owner.id)).map((o) => o.status)).toEqual(["paid", "paid"]);
    expect(await packageOrdersOf(other.id)).toHaveLength(0);
    expect(await ticketOrdersOf(other.id)).toHaveLength(0);
    expect(await participationsOf(other.id)).toHaveLength(0);
    expect(await outboxOf([other.id])).toHaveLength(0);
  });
});

describe("IPN signature", { timeout: 30_000 }, () => {
  async function expectRefused(fields: Record<string, string>, orderId: string) {
    const res = await postIpn(fields);
    expect(res.statusCode).toBe(403);
    expect(await notificationsOf(orderId)).toHaveLength(0);
    expect(await ordersWithNumber(orderId)).toHaveLength(0);
  }

  it("refuses a forged signature with 403 and stores nothing", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "ticpac");
    const fields = ipnFields(p);
    await expectRefused({ ...fields, sha_sign: "A".repeat(128) }, p.orderId);
    // signed with another passphrase
    await expectRefused(
      { ...fields, sha_sign: digistoreSignature(fields, `${passphrase()}-falsch`) },
      p.orderId,
    );
    expect(await participationsOf(user.id)).toHaveLength(0);
  });

  it("refuses an unsigned notification with 403 and stores nothing", async () => {
    const s = await shop(1);
    const p = purchase(await buyer(), s, "pac");
    await expectRefused(ipnFields(p), p.orderId);
    await expectRefused({ ...ipnFields(p), sha_sign: "" }, p.orderId);
  });

  it("refuses a notification changed after signing with 403 and stores nothing", async () => {
    const s = await shop(1);
    const user = await buyer();
    const thief = await buyer();
    const p = purchase(user, s, "tic");
    const good = signed(ipnFields(p));
    await expectRefused({ ...good, custom: `uid-${thief.digistoreHash}|pid-${p.pid}|cat-tic` }, p.orderId);
    await expectRefused({ ...good, amount: "0.01" }, p.orderId);
    await expectRefused({ ...good, event: "on_refund" }, p.orderId);
    expect(await ticketOrdersOf(thief.id)).toHaveLength(0);
    expect(await participationsOf(thief.id)).toHaveLength(0);
  });

  it("accepts the uppercase-key signature variant", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "pac");
    const res = await postIpn(signed(ipnFields(p), { uppercaseKeys: true }));
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith("OK")).toBe(true);
    expect((await packageOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
  });

  it("accepts the uppercase-key signature sent as SHASIGN", async () => {
    const s = await shop(0);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    const fields = ipnFields(p);
    const res = await postIpn({
      ...fields,
      SHASIGN: digistoreSignature(fields, passphrase(), { uppercaseKeys: true }),
    });
    expect(res.statusCode).toBe(200);
    expect((await ticketOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
  });
});

describe("IPN that changes nothing", { timeout: 30_000 }, () => {
  it("answers Digistore24's URL validation (a plain GET, with or without a trailing slash) with 200 OK and no redirect", async () => {
    const before = await db().select().from(paymentNotifications);
    for (const url of ["/api/digistore/ipn", "/api/digistore/ipn/"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe("OK");
      expect(res.headers.location).toBeUndefined();
    }
    expect(await db().select().from(paymentNotifications)).toHaveLength(before.length);
  });

  it("takes a notification posted to the URL with a trailing slash without a redirect", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/digistore/ipn/",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(signed({ event: "connection_test", api_mode: "live" })).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith("OK")).toBe(true);
  });

  it("answers connection_test with 200 OK", async () => {
    const res = await postIpn(signed({ event: "connection_test", api_mode: "live" }));
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith("OK")).toBe(true);
  });

  async function expectIgnored(p: Purchase, fields: Record<string, string>) {
    const res = await postIpn(signed(fields));
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith("OK")).toBe(true);
    const notifications = await notificationsOf(p.orderId);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]?.outcome).toBe("ignored");
    expect(await ordersWithNumber(p.orderId)).toHaveLength(0);
  }

  it("records a notification for an unknown user hash as ignored and creates no order", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    await expectIgnored(
      p,
      ipnFields(p, "on_payment", { custom: `uid-ffff${unique()}|pid-${p.pid}|cat-tic` }),
    );
    expect(await participationsOf(user.id)).toHaveLength(0);
  });

  it("records a notification for an unknown package as ignored and creates no order", async () => {
    const s = await shop(1);
    const p = { ...purchase(await buyer(), s, "pac"), pid: 2_000_000_000 };
    await expectIgnored(p, ipnFields(p));
  });

  it("records a notification whose product_id is not the product's checkout id as ignored", async () => {
    const s = await shop(2);
    const user = await buyer();
    // package: product_id of another package
    const pac = purchase(user, s, "pac");
    await expectIgnored(pac, ipnFields({ ...pac, productId: s.packages[1]?.externalId ?? 0 }));
    // ticket only paid, but custom claims ticket and packages
    const ticpac = purchase(user, s, "ticpac");
    await expectIgnored(ticpac, ipnFields({ ...ticpac, productId: s.congress.digistoreIdTicket }));
    // ticket+package checkout id for a plain ticket
    const tic = purchase(user, s, "tic");
    await expectIgnored(tic, ipnFields({ ...tic, productId: s.congress.digistoreIdTicketAndPackage }));
    expect(await participationsOf(user.id)).toHaveLength(0);
    expect(await packageOrdersOf(user.id)).toHaveLength(0);
  });

  it("an ignored withdrawal of the same order number does not cancel the order on a later retry", async () => {
    const s = await shop(2);
    const user = await buyer();
    const p = purchase(user, s, "pac");
    await ipn(p);
    // same order, another product (e.g. an order bump) refunded: not ours to apply
    await ipn({ ...p, productId: s.packages[1]?.externalId ?? 0 }, "on_refund");
    const [, ignored] = await notificationsOf(p.orderId);
    expect(ignored?.outcome).toBe("ignored");
    expect((await packageOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
    // Digistore24 retries the original payment notification
    await ipn(p);
    expect((await packageOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
    expect(await isQualified(user.id, s.packages[0]?.id ?? 0)).toBe(true);
  });
});

describe("IPN concurrency", { timeout: 30_000 }, () => {
  it("five identical notifications at once give exactly one order, one participation and one mail", async () => {
    const s = await shop(2);
    const user = await buyer();
    const p = purchase(user, s, "ticpac");
    const payload = signed(ipnFields(p));
    const answers = await Promise.all(Array.from({ length: 5 }, () => postIpn(payload)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);

    expect(await ticketOrdersOf(user.id)).toHaveLength(1);
    expect(await packageOrdersOf(user.id)).toHaveLength(2);
    expect(await participationsOf(user.id)).toHaveLength(1);
    expect(await notificationsOf(p.orderId)).toHaveLength(5);
    expect(await outboxOf([user.id])).toHaveLength(1);
    expect(await mailsTo(user.email, 1)).toHaveLength(1);
  });

  it("concurrent notifications over real HTTP give one order", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const s = await shop(0);
    const user = await buyer();
    const p = purchase(user, s, "tic");
    const body = new URLSearchParams(signed(ipnFields(p))).toString();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${address}/api/digistore/ipn`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await ticketOrdersOf(user.id)).toHaveLength(1);
    expect(await participationsOf(user.id)).toHaveLength(1);
  });
});

describe("admin orders", { timeout: 30_000 }, () => {
  const post = async (url: string, field: string, data: unknown, headers?: Record<string, string>) => {
    const form = multipart({ [field]: JSON.stringify(data) });
    return t.app.inject({
      method: "POST",
      url,
      headers: { ...form.headers, ...(headers ?? (await adminHeaders())) },
      payload: form.payload,
    });
  };

  it("POST /api/congress-ticket-order/ creates one paid FAKE-ORDER, participation and mail per user", async () => {
    const s = await shop(1);
    const people = [await buyer(), await buyer(), await buyer()];
    const res = await post("/api/congress-ticket-order/", "congressTicketOrderData", {
      users: people.map((u) => u.id),
      congress: s.congress.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toHaveLength(3);

    const rows = await db()
      .select()
      .from(congressTicketOrders)
      .where(
        inArray(
          congressTicketOrders.userId,
          people.map((u) => u.id),
        ),
      );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ externalId: FAKE_ORDER_NUMBER, status: "paid", congressId: s.congress.id });
    }
    expect(rows.map((r) => r.userId).sort()).toEqual(people.map((u) => u.id).sort());
    for (const person of people) {
      expect((await participationsOf(person.id)).map((r) => r.congressId)).toEqual([s.congress.id]);
    }
    for (const person of people) {
      const mails = await mailsTo(person.email, 1, 0);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe(`Für Sie freigeschaltet: ${s.congress.title}`);
      expect(mails[0]?.html).toContain("Ticket <strong>");
    }
    await sleep(1000);
    for (const person of people) {
      expect(t.smtp.mails.filter((m) => isTo(m, person.email))).toHaveLength(1);
    }
  });

  it("POST /api/congress-package-order/ accepts users and package given as objects", async () => {
    const s = await shop(2);
    const people = [await buyer(), await buyer()];
    const pkg = s.packages[1];
    const res = await post("/api/congress-package-order/", "congressPackageOrderData", {
      users: people.map((u) => ({ id: u.id, email: u.email, firstname: u.firstname })),
      congressPackage: { id: pkg?.id, name: pkg?.name },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as { userEmail: string; externalId: string; statusLabel: string }[];
    expect(created.map((r) => r.userEmail).sort()).toEqual(people.map((u) => u.email).sort());
    for (const row of created) {
      expect(row).toMatchObject({ externalId: FAKE_ORDER_NUMBER, status: "paid", statusLabel: "bezahlt" });
    }
    for (const person of people) {
      const orders = await packageOrdersOf(person.id);
      expect(orders.map((o) => [o.congressPackageId, o.status, o.externalId])).toEqual([
        [pkg?.id, "paid", FAKE_ORDER_NUMBER],
      ]);
      expect(await isQualified(person.id, pkg?.id ?? 0)).toBe(true);
      expect(await participationsOf(person.id)).toHaveLength(0);
      const mails = await mailsTo(person.email, 1, 0);
      expect(mails[0]?.subject).toBe(`Für Sie freigeschaltet: ${pkg?.name}`);
      expect(mails[0]?.html).toContain("Kongresspaket <strong>");
    }
  });

  it("creates nothing, not even a queued mail, when one user id is unknown", async () => {
    const s = await shop(1);
    const people = [await buyer(), await buyer()];
    const ids = [...people.map((u) => u.id), 2_000_000_000];
    const tickets = await post("/api/congress-ticket-order/", "congressTicketOrderData", {
      users: ids,
      congress: s.congress.id,
    });
    expect(tickets.statusCode).toBeGreaterThanOrEqual(400);
    expect(tickets.statusCode).toBeLessThan(500);
    const packages = await post("/api/congress-package-order/", "congressPackageOrderData", {
      users: ids.map((id) => ({ id })),
      congressPackage: s.packages[0]?.id,
    });
    expect(packages.statusCode).toBeGreaterThanOrEqual(400);
    expect(packages.statusCode).toBeLessThan(500);

    const userIds = people.map((u) => u.id);
    expect(
      await db().select().from(congressTicketOrders).where(inArray(congressTicketOrders.userId, userIds)),
    ).toHaveLength(0);
    expect(
      await db().select().from(congressPackageOrders).where(inArray(congressPackageOrders.userId, userIds)),
    ).toHaveLength(0);
    expect(
      await db().select().from(participations).where(inArray(participations.userId, userIds)),
    ).toHaveLength(0);
    expect(await outboxOf(userIds)).toHaveLength(0);
  });

  it("creates nothing for an unknown congress or package", async () => {
    const user = await buyer();
    const tickets = await post("/api/congress-ticket-order/", "congressTicketOrderData", {
      users: [user.id],
      congress: 2_000_000_000,
    });
    expect(tickets.statusCode).toBe(404);
    const packages = await post("/api/congress-package-order/", "congressPackageOrderData", {
      users: [user.id],
      congressPackage: 2_000_000_000,
    });
    expect(packages.statusCode).toBe(404);
    expect(await outboxOf([user.id])).toHaveLength(0);
  });

  it("refuses an admin order for a person who already has it paid, naming the order (ADR 0089)", async () => {
    const s = await shop(1);
    const pkg = s.packages[0];
    if (!pkg) {
      throw new Error("no package");
    }
    const first = await buyer();
    const other = await buyer();
    const tickets = { users: [first.id], congress: s.congress.id };
    expect((await post("/api/congress-ticket-order/", "congressTicketOrderData", tickets)).statusCode).toBe(
      201,
    );
    const again = await post("/api/congress-ticket-order/", "congressTicketOrderData", {
      users: [other.id, first.id],
      congress: s.congress.id,
    });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().detail).toContain(`Für ${first.email} (FAKE-ORDER vom `);
    expect(again.json().detail).toContain("gibt es bereits eine bezahlte Bestellung");
    // all or nothing: the other person got no order either
    expect(await ticketOrdersOf(other.id)).toHaveLength(0);
    expect(await ticketOrdersOf(first.id)).toHaveLength(1);

    // a bought (IPN) package counts as well; the form's warning lists the same order
    await ipn(purchase(other, s, "pac"));
    const packages = await post("/api/congress-package-order/", "congressPackageOrderData", {
      users: [other.id],
      congressPackage: pkg.id,
    });
    expect(packages.statusCode, packages.body).toBe(409);
    const warning = await trpcQuery(
      t,
      "orders.listPaidOrders",
      { kind: "package", productId: pkg.id, users: [first.id, other.id] },
      { token: await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]) },
    );
    expect(warning.status, warning.body).toBe(200);
    expect(warning.data.map((o: { email: string }) => o.email)).toEqual([other.email]);
  });

  it("lists orders newest first with statusLabel and userEmail", async () => {
    const s = await shop(1);
    const pkg = s.packages[0];
    const paidBuyer = await buyer();
    const refundedBuyer = await buyer();
    const adminBuyer = await buyer();

    // per list: a paid order, then a refunded one, then an admin order
    await ipn(purchase(paidBuyer, s, "tic"));
    await ipn(purchase(paidBuyer, s, "pac"));
    await sleep(20);
    const refundedTicket = purchase(refundedBuyer, s, "tic");
    const refundedPackage = purchase(refundedBuyer, s, "pac");
    for (const p of [refundedTicket, refundedPackage]) {
      await ipn(p);
      await withdraw(p, "on_refund");
    }
    await sleep(20);
    const byAdmin = [
      await post("/api/congress-ticket-order/", "congressTicketOrderData", {
        users: [adminBuyer.id],
        congress: s.congress.id,
      }),
      await post("/api/congress-package-order/", "congressPackageOrderData", {
        users: [adminBuyer.id],
        congressPackage: pkg?.id,
      }),
    ];
    expect(byAdmin.map((r) => r.statusCode)).toEqual([201, 201]);

    type Page = {
      items: {
        id: number;
        userEmail: string;
        status: string;
        statusLabel: string;
        endReasonLabel: string | null;
        externalId: string;
        createdAt: string;
      }[];
      total: number;
    };
    const list = async (url: string, query = "") => {
      const res = await t.app.inject({ method: "GET", url: `${url}${query}`, headers: await adminHeaders() });
      expect(res.statusCode, url).toBe(200);
      // the spec's "list of orders": the page's rows, the filter's count in a header (ADR 0087)
      return { items: res.json(), total: Number(res.headers["x-total-count"]) } as Page;
    };
    for (const url of ["/api/congress-ticket-order", "/api/congress-package-order"]) {
      const first = await list(url);
      expect(first.items.length).toBe(Math.min(10, first.total));
      const second = await list(url, "?page=2");
      const all = [...first.items, ...second.items];
      expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
      // newest first across the pages
      for (let i = 1; i < all.length; i++) {
        const [prev, cur] = [all[i - 1], all[i]];
        const newer =
          Date.parse(prev?.createdAt ?? "") > Date.parse(cur?.createdAt ?? "") ||
          (prev?.createdAt === cur?.createdAt && (prev?.id ?? 0) > (cur?.id ?? 0));
        expect(newer, `${url} position ${i}`).toBe(true);
      }
      const mine: Page["items"] = [];
      for (const buyerEmail of [adminBuyer.email, refundedBuyer.email, paidBuyer.email]) {
        // the e-mail search is "contains, any case"
        const found = await list(url, `?search=${encodeURIComponent(buyerEmail.slice(2).toUpperCase())}`);
        expect(found.total, buyerEmail).toBe(1);
        mine.push(...found.items);
      }
      // a canceled order says why it ended
      expect(mine.map((r) => [r.userEmail, r.status, r.statusLabel, r.endReasonLabel])).toEqual([
        [adminBuyer.email, "paid", "bezahlt", null],
        [refundedBuyer.email, "canceled", "storniert", "Erstattung"],
        [paidBuyer.email, "paid", "bezahlt", null],
      ]);
      expect(mine[0]?.externalId).toBe(FAKE_ORDER_NUMBER);
      // the order number matches exactly, in any case
      const byNumber = await list(url, `?search=${mine[1]?.externalId.toLowerCase()}`);
      expect(byNumber.items.map((r) => r.id)).toEqual([mine[1]?.id]);
      expect((await list(url, `?search=${mine[1]?.externalId}-X`)).total).toBe(0);
      // LIKE wildcards are literal
      expect((await list(url, "?search=%25")).total).toBe(0);
    }
  });
});

describe("order REST access", { timeout: 30_000 }, () => {
  const paths = (congressId: number, packageId: number) =>
    [
      ["GET", "/api/congress-package-order", undefined],
      [
        "POST",
        "/api/congress-package-order/",
        multipart({
          congressPackageOrderData: JSON.stringify({ users: [admin.id], congressPackage: packageId }),
        }),
      ],
      ["GET", "/api/congress-ticket-order", undefined],
      [
        "POST",
        "/api/congress-ticket-order/",
        multipart({ congressTicketOrderData: JSON.stringify({ users: [admin.id], congress: congressId }) }),
      ],
    ] as const;

  it("answers 403 to a plain user and 401 without login on all four order paths", async () => {
    const s = await shop(1);
    const user = await buyer();
    const userHeaders = await auth(user.id, ["ROLE_USER"]);
    for (const [method, url, body] of paths(s.congress.id, s.packages[0]?.id ?? 0)) {
      const asUser = await t.app.inject({
        method,
        url,
        headers: { ...userHeaders, ...body?.headers },
        ...(body && { payload: body.payload }),
      });
      expect(asUser.statusCode, `user ${method} ${url}`).toBe(403);
      const anonymous = await t.app.inject({
        method,
        url,
        headers: { ...body?.headers },
        ...(body && { payload: body.payload }),
      });
      expect(anonymous.statusCode, `anonymous ${method} ${url}`).toBe(401);
    }
    expect(await ticketOrdersOf(admin.id)).toHaveLength(0);
    expect(await packageOrdersOf(admin.id)).toHaveLength(0);
  });

  it("the IPN endpoint needs no token", async () => {
    const s = await shop(1);
    const user = await buyer();
    const p = purchase(user, s, "pac");
    const res = await postIpn(signed(ipnFields(p)));
    expect(res.statusCode).toBe(200);
    expect((await packageOrdersOf(user.id)).map((o) => o.status)).toEqual(["paid"]);
  });
});
