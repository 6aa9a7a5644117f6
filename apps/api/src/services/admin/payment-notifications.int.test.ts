import { schema } from "@app/db";
import { ADMIN_PAGE_SIZE } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAndVisitor, createUser, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/** ADR 0056: the support view "Zahlungsmeldungen" (list, filters, paging, raw payload on demand). */

let t: TestApp;
const db = () => t.db.db;
let adminToken: string;
let visitorToken: string;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;
const asAdmin = () => ({ token: adminToken });
const LIST = "admin.paymentNotifications.list";
const GET = "admin.paymentNotifications.get";

type Row = typeof schema.paymentNotifications.$inferInsert;
async function notify(values: Partial<Row> & { payload: Record<string, string> }): Promise<number> {
  const [row] = await db()
    .insert(schema.paymentNotifications)
    .values({ event: "on_payment", signatureValid: true, outcome: "processed", ...values })
    .returning({ id: schema.paymentNotifications.id });
  if (!row) {
    throw new Error("not inserted");
  }
  return row.id;
}

const idsOf = (answer: { data: { items: Array<{ id: number }> } }) => answer.data.items.map((i) => i.id);

beforeAll(async () => {
  t = await createTestApp();
  ({ adminToken, visitorToken } = await adminAndVisitor(t));
});
afterAll(async () => {
  await t?.close();
});

describe("payment notifications support view", { timeout: 60_000 }, () => {
  it("pages newest first on the server, without the raw payload", async () => {
    const tag = unique();
    const base = Date.parse("2026-03-01T10:00:00Z");
    const ids: number[] = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 1; i += 1) {
      ids.push(
        await notify({
          orderId: `PAGE${tag}X${i}`,
          payload: { email: `seite.${tag}@example.com`, secret_field: `geheim-${tag}` },
          receivedAt: new Date(base + i * 60_000),
        }),
      );
    }
    const newestFirst = [...ids].reverse();
    const first = await trpcQuery(t, LIST, { email: `seite.${tag}` }, asAdmin());
    expect(first.status, first.body).toBe(200);
    expect(first.data).toMatchObject({
      total: ADMIN_PAGE_SIZE + 1,
      totalExact: true,
      page: 1,
      pageSize: ADMIN_PAGE_SIZE,
    });
    expect(idsOf(first)).toEqual(newestFirst.slice(0, ADMIN_PAGE_SIZE));
    expect(first.body).not.toContain(`geheim-${tag}`);
    const second = await trpcQuery(t, LIST, { email: `seite.${tag}`, page: 2 }, asAdmin());
    expect(idsOf(second)).toEqual(newestFirst.slice(ADMIN_PAGE_SIZE));
  });

  it("filters by the whole order number in any case, and shows each row's facts", async () => {
    const order = `Ord${unique()}`;
    const id = await notify({
      orderId: order,
      productId: "4711",
      event: "on_refund",
      outcome: "recorded",
      outcomeDetail: "order already ended",
      payload: { buyer_email: "Käuferin@Example.com" },
    });
    await notify({ orderId: `${order}2`, payload: {} });
    const answer = await trpcQuery(t, LIST, { orderNumber: order.toUpperCase() }, asAdmin());
    expect(answer.status, answer.body).toBe(200);
    expect(answer.data.items).toHaveLength(1);
    expect(answer.data.items[0]).toMatchObject({
      id,
      event: "on_refund",
      orderNumber: order,
      productId: "4711",
      outcome: "recorded",
      outcomeLabel: "nur protokolliert",
      outcomeDetail: "order already ended",
      buyerEmail: "Käuferin@Example.com",
    });
    expect(typeof answer.data.items[0].receivedAt).toBe("string");
    expect(idsOf(await trpcQuery(t, LIST, { orderNumber: order.slice(0, -1) }, asAdmin()))).toEqual([]);
  });

  it("filters by e-mail: the payload's email or buyer_email, or the account named in custom", async () => {
    const tag = unique();
    const viaEmail = await notify({ orderId: `E1${tag}`, payload: { email: `Anna.${tag}@Example.com` } });
    const viaBuyerEmail = await notify({
      orderId: `E2${tag}`,
      payload: { buyer_email: `anna.${tag}@example.com` },
    });
    const account = await createUser(db(), { email: `konto.anna.${tag}@example.com` });
    // buyer fields blanked by the retention job: only the account still tells whose it was
    const viaAccount = await notify({
      orderId: `E3${tag}`,
      custom: `pid-1|uid-${account.digistoreHash}|cat-pac`,
      payload: { email: "", buyer_email: "" },
    });
    await notify({ orderId: `E4${tag}`, payload: { email: `berta.${tag}@example.com` } });
    const answer = await trpcQuery(t, LIST, { email: `ANNA.${tag}` }, asAdmin());
    expect(answer.status, answer.body).toBe(200);
    expect(idsOf(answer).sort()).toEqual([viaEmail, viaBuyerEmail, viaAccount].sort());
    const fromAccount = answer.data.items.find((i: { id: number }) => i.id === viaAccount);
    expect(fromAccount.buyerEmail).toBe(account.email);
    // % and _ match literally
    expect(idsOf(await trpcQuery(t, LIST, { email: `anna_${tag}` }, asAdmin()))).toEqual([]);
  });

  it("filters by outcome and shows an old row's outcome as stored", async () => {
    const order = `OUT${unique()}`;
    const conflict = await notify({ orderId: order, outcome: "conflict", payload: {} });
    const old = await notify({ orderId: order, outcome: "failed", payload: {} });
    await notify({ orderId: order, outcome: "processed", payload: {} });
    const conflicts = await trpcQuery(t, LIST, { orderNumber: order, outcome: "conflict" }, asAdmin());
    expect(idsOf(conflicts)).toEqual([conflict]);
    expect(conflicts.data.items[0].outcomeLabel).toBe("Konflikt: anderes Konto");
    const all = await trpcQuery(t, LIST, { orderNumber: order }, asAdmin());
    expect(all.data.items.find((i: { id: number }) => i.id === old)).toMatchObject({
      outcome: "failed",
      outcomeLabel: "failed",
    });
    expect((await trpcQuery(t, LIST, { outcome: "received" }, asAdmin())).status).toBe(400);
  });

  it("gives the raw payload of one notification on demand", async () => {
    const payload = { event: "on_payment", order_id: `RAW${unique()}`, address_city: "Köln", email: "" };
    const id = await notify({ orderId: payload.order_id, payload });
    const answer = await trpcQuery(t, GET, { id }, asAdmin());
    expect(answer.status, answer.body).toBe(200);
    expect(answer.data).toMatchObject({ id, event: "on_payment", orderNumber: payload.order_id, payload });
    const missing = await trpcQuery(t, GET, { id: 2_000_000_000 }, asAdmin());
    expect(missing.status).toBe(404);
    expect(missing.error?.detail).toBe("Die Zahlungsmeldung wurde nicht gefunden.");
  });

  it("is for admins only", async () => {
    const id = await notify({ orderId: `SEC${unique()}`, payload: { email: "x@example.com" } });
    expect((await trpcQuery(t, LIST, {}, { token: visitorToken })).status).toBe(403);
    expect((await trpcQuery(t, GET, { id }, { token: visitorToken })).status).toBe(403);
    expect((await trpcQuery(t, LIST, {})).status).toBe(401);
    expect((await trpcQuery(t, GET, { id })).status).toBe(401);
  });
});
