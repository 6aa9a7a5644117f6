import { schema } from "@app/db";
import { AUDIT_HIDDEN_VALUE, MSG_ADMIN } from "@app/shared";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createPackage,
  createUser,
  packageOrder,
  relDay,
  trpcMutation,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { digistoreSignature } from "../commerce/signature";

/** ADR 0045: every admin write and every payment notification leaves one audit entry. */

let t: TestApp;
const db = () => t.db.db;
const { auditLog } = schema;
let admin: typeof schema.users.$inferSelect;
let adminToken: string;
let visitorToken: string;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;
const asAdmin = () => ({ token: adminToken, ip: `10.9.0.${(seq % 250) + 1}` });

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(db(), {
    email: `audit.admin.${unique()}@example.com`,
    firstname: "Anna",
    lastname: "Admin",
    roles: ["ROLE_USER", "ROLE_ADMIN"],
  });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
  const visitor = await createUser(db(), { email: `audit.visitor.${unique()}@example.com` });
  visitorToken = await t.tokenFor(visitor.id);
});
afterAll(async () => {
  await t?.close();
});

/** The entries of one entity, oldest first. */
const entriesOf = (entity: string, entityId: string | number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(entityId))))
    .orderBy(auditLog.id);

const countAll = () => db().$count(auditLog);

async function ok(answer: Promise<{ status: number; body: string; data: unknown }>) {
  const a = await answer;
  expect(a.status, a.body).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  return a.data as any;
}

const congressInput = (values: Record<string, unknown> = {}) => ({
  title: `Protokoll-Kongress ${unique()}`,
  description: "Beschreibung",
  firstCongressDay: { date: relDay(10) },
  ...values,
});

describe("audit entries for every admin write", { timeout: 30_000 }, () => {
  it("events: creation with the new values, changes as [before, after], deletion", async () => {
    const created = await ok(trpcMutation(t, "admin.congresses.save", congressInput(), asAdmin()));
    const [creation] = await entriesOf("congress", created.id);
    expect(creation).toMatchObject({
      actorId: admin.id,
      actorKind: "admin",
      action: "congress.create",
      entityId: String(created.id),
    });
    expect(creation?.changes).toMatchObject({ title: created.title, visible: false, firstDay: relDay(10) });

    const input = congressInput({ id: created.id, title: "Neuer Titel", visible: true });
    await ok(trpcMutation(t, "admin.congresses.save", input, asAdmin()));
    const [, update] = await entriesOf("congress", created.id);
    expect(update?.action).toBe("congress.save");
    // exactly the fields that changed: the description and days stayed
    expect(update?.changes).toEqual({ title: [created.title, "Neuer Titel"], visible: [false, true] });

    await ok(trpcMutation(t, "admin.congresses.delete", { id: created.id }, asAdmin()));
    const [, , deletion] = await entriesOf("congress", created.id);
    expect(deletion).toMatchObject({ action: "congress.delete", changes: { title: ["Neuer Titel", null] } });
  });

  it("packages", async () => {
    const congress = await createCongress(db());
    const input = { name: "Paket A", congress: congress.id, externalId: 70_000 + seq, description: "D" };
    const created = await ok(trpcMutation(t, "admin.packages.save", input, asAdmin()));
    await ok(
      trpcMutation(t, "admin.packages.save", { ...input, id: created.id, name: "Paket B" }, asAdmin()),
    );
    await ok(trpcMutation(t, "admin.packages.delete", { id: created.id }, asAdmin()));
    const entries = await entriesOf("package", created.id);
    expect(entries.map((e) => e.action)).toEqual(["package.create", "package.save", "package.delete"]);
    expect(entries[0]?.changes).toMatchObject({ name: "Paket A", congressId: congress.id });
    expect(entries[1]?.changes).toEqual({ name: ["Paket A", "Paket B"] });
  });

  it("video contents", async () => {
    const congress = await createCongress(db());
    const days = (comment: string) => ({
      days: [{ name: "Tag 1", videos: [{ url: "https://player.vimeo.com/video/1", comment }] }],
    });
    const created = await ok(
      trpcMutation(t, "admin.contents.save", { congress: congress.id, data: days("alt") }, asAdmin()),
    );
    const update = { id: created.id, congress: congress.id, data: days("neu") };
    await ok(trpcMutation(t, "admin.contents.save", update, asAdmin()));
    await ok(trpcMutation(t, "admin.contents.delete", { id: created.id }, asAdmin()));
    const entries = await entriesOf("content", created.id);
    expect(entries.map((e) => e.action)).toEqual(["content.create", "content.save", "content.delete"]);
    const [before, after] = (entries[1]?.changes.data ?? []) as Array<{
      days: { videos: { comment: string }[] }[];
    }>;
    expect(before?.days[0]?.videos[0]?.comment).toBe("alt");
    expect(after?.days[0]?.videos[0]?.comment).toBe("neu");
  });

  it("users: edit (names hidden, addresses masked), active switch, delete; never a password", async () => {
    const user = await createUser(db(), { email: `vorher.${unique()}@alt.example`, lastname: "Alt" });
    const input = {
      id: user.id,
      firstname: user.firstname,
      lastname: "Neu",
      email: `nachher.${unique()}@neu.example`,
      active: true,
      admin: false,
    };
    await ok(trpcMutation(t, "admin.users.save", input, asAdmin()));
    await ok(trpcMutation(t, "admin.users.setActive", { id: user.id, active: false }, asAdmin()));
    await ok(trpcMutation(t, "admin.users.delete", { id: user.id }, asAdmin()));
    const entries = await entriesOf("user", user.id);
    expect(entries.map((e) => e.action)).toEqual(["user.save", "user.active", "user.delete"]);
    expect(entries[0]?.changes).toEqual({
      lastname: [AUDIT_HIDDEN_VALUE, AUDIT_HIDDEN_VALUE],
      email: ["***@alt.example", "***@neu.example"],
    });
    expect(entries[1]?.changes).toEqual({ active: [true, false] });
    const stored = JSON.stringify(entries);
    expect(stored).not.toContain(user.email);
    expect(stored).not.toContain(input.email);
    expect(stored).not.toMatch(/password|hash/i);
  });

  it("orders created by an admin: one entry per order", async () => {
    const congress = await createCongress(db());
    const pkg = await createPackage(db(), congress.id);
    const buyers = [await createUser(db()), await createUser(db())];
    const input = { kind: "package", users: buyers.map((b) => b.id), congressPackage: pkg.id };
    const orders = await ok(trpcMutation(t, "orders.create", input, asAdmin()));
    expect(orders).toHaveLength(2);
    for (const [i, order] of orders.entries()) {
      const [entry] = await entriesOf("order", `package:${order.id}`);
      expect(entry).toMatchObject({
        action: "order.create",
        actorId: admin.id,
        changes: { category: "pac", productId: pkg.id, userId: buyers[i]?.id, status: "paid" },
      });
    }
  });

  it("mail templates: save (creation, then changes) and copy", async () => {
    const from = await createCongress(db());
    const to = await createCongress(db());
    const template = { name: "event-day", congress: from.id, subject: "Alt", content: "<p>Hallo</p>" };
    const saved = await ok(trpcMutation(t, "admin.mailTemplates.save", template, asAdmin()));
    const id = saved.template.id;
    await ok(trpcMutation(t, "admin.mailTemplates.save", { ...template, id, subject: "Neu" }, asAdmin()));
    const entries = await entriesOf("mail-template", id);
    expect(entries.map((e) => e.action)).toEqual(["template.save", "template.save"]);
    expect(entries[0]?.changes).toMatchObject({ name: "event-day", subject: "Alt", congressId: from.id });
    expect(entries[1]?.changes).toEqual({ subject: ["Alt", "Neu"] });

    const before = await countAll();
    await ok(trpcMutation(t, "admin.mailTemplates.copy", { copy_from: from.id, copy_to: to.id }, asAdmin()));
    expect(await countAll()).toBe(before + 1);
    const [copy] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "template.copy"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(copy?.changes).toEqual({ copyFrom: from.id, copyTo: to.id, templates: ["event-day"] });
  });

  it("legal pages", async () => {
    const html = `<p>Impressum ${unique()}</p>`;
    await ok(trpcMutation(t, "admin.legalPages.save", { slug: "impressum", html }, asAdmin()));
    const next = `<p>Impressum ${unique()}</p>`;
    await ok(trpcMutation(t, "admin.legalPages.save", { slug: "impressum", html: next }, asAdmin()));
    const entries = await entriesOf("legal-page", "impressum");
    expect(entries.at(-1)).toMatchObject({ action: "legal-page.save", changes: { html: [html, next] } });
  });
});

describe("payment notifications", () => {
  it("record event, order number, product and outcome, nothing about the buyer", async () => {
    const buyer = await createUser(db(), { email: `kaeufer.${unique()}@example.com` });
    const congress = await createCongress(db());
    const pkg = await createPackage(db(), congress.id);
    const orderId = `ORD-${unique()}`;
    const fields = {
      event: "on_payment",
      order_id: orderId,
      product_id: String(pkg.externalId),
      transaction_id: `TX-${orderId}`,
      email: buyer.email,
      buyer_email: buyer.email,
      buyer_first_name: "Jörg",
      buyer_last_name: "Käufer",
      custom: `uid-${buyer.digistoreHash}|pid-${pkg.id}|cat-pac`,
    };
    const signed = { ...fields, sha_sign: digistoreSignature(fields, t.env.DIGISTORE_IPN_PASSPHRASE) };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/digistore/ipn",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(signed).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [notification] = await db()
      .select({ id: schema.paymentNotifications.id })
      .from(schema.paymentNotifications)
      .where(eq(schema.paymentNotifications.orderId, orderId));
    const [entry] = await entriesOf("payment-notification", notification?.id ?? 0);
    expect(entry).toMatchObject({ actorId: null, actorKind: "payment-notification", action: "ipn.payment" });
    expect(entry?.changes).toEqual({
      event: "on_payment",
      orderNumber: orderId,
      productId: String(pkg.externalId),
      outcome: "processed",
      orderStatus: "paid",
    });
    expect(JSON.stringify(entry)).not.toMatch(/kaeufer|Jörg|Käufer|uid-/);
  });
});

describe("failed writes leave no entry", () => {
  it("validation errors, missing rows and rolled-back deletes", async () => {
    const congress = await createCongress(db());
    await packageOrder(db(), admin.id, (await createPackage(db(), congress.id)).id, "paid");
    const before = await countAll();

    const invalid = await trpcMutation(t, "admin.congresses.save", congressInput({ title: "" }), asAdmin());
    expect(invalid.status).toBe(400);
    const missing = await trpcMutation(
      t,
      "admin.congresses.save",
      congressInput({ id: 2_000_000 }),
      asAdmin(),
    );
    expect(missing.status).toBe(404);
    // the delete fails inside its transaction (orders reference the event): the entry goes with it
    const refused = await trpcMutation(t, "admin.congresses.delete", { id: congress.id }, asAdmin());
    expect(refused.status).toBe(409);
    expect(refused.error?.detail).toBe(MSG_ADMIN.congressHasOrders);
    const self = await trpcMutation(t, "admin.users.delete", { id: admin.id }, asAdmin());
    expect(self.status).toBe(403);
    const page = { slug: "datenschutz", html: "<p> </p>" };
    expect((await trpcMutation(t, "admin.legalPages.save", page, asAdmin())).status).toBe(400);
    const clash = await trpcMutation(
      t,
      "admin.mailTemplates.save",
      { name: "event-day", congress: 2_000_000, subject: "S", content: "" },
      asAdmin(),
    );
    expect(clash.status).toBe(400);

    expect(await countAll()).toBe(before);
  });
});

describe("reading the audit log", () => {
  let actorGone: typeof schema.users.$inferSelect;
  beforeAll(async () => {
    actorGone = await createUser(db(), { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    // 2020-03-10 23:30 UTC is 11 March 00:30 in Berlin; 2020-03-11 22:59 UTC still 11 March
    await db()
      .insert(auditLog)
      .values([
        {
          at: new Date("2020-03-10T22:30:00Z"),
          actorKind: "system",
          action: "congress.save",
          entity: "congress",
        },
        {
          at: new Date("2020-03-10T23:30:00Z"),
          actorId: actorGone.id,
          actorKind: "admin",
          action: "user.delete",
          entity: "user",
          entityId: "1",
        },
        {
          at: new Date("2020-03-11T22:59:00Z"),
          actorKind: "payment-notification",
          action: "ipn.refund",
          entity: "payment-notification",
        },
        {
          at: new Date("2020-03-11T23:01:00Z"),
          actorKind: "system",
          action: "congress.save",
          entity: "congress",
        },
      ]);
    await db().delete(schema.users).where(eq(schema.users.id, actorGone.id));
  });

  const list = async (input: Record<string, unknown>) =>
    ok(trpcQuery(t, "admin.audit.list", input, asAdmin()));

  it("filters by Berlin calendar days, newest first, with German actor labels", async () => {
    const data = await list({ from: "2020-03-11", to: "2020-03-11" });
    expect(data.items.map((e: { action: string }) => e.action)).toEqual(["ipn.refund", "user.delete"]);
    expect(data.items.map((e: { actor: string }) => e.actor)).toEqual([
      "Zahlungsanbieter",
      "gelöschtes Konto",
    ]);
    expect(data.items[0].actionLabel).toBe("Erstattung gemeldet");
    expect(data.total).toBe(2);
  });

  it("filters by entity, action and actor", async () => {
    const byEntity = await list({ entity: "payment-notification", to: "2020-12-31" });
    expect(byEntity.items.map((e: { action: string }) => e.action)).toEqual(["ipn.refund"]);
    const byAction = await list({ action: "congress.save", to: "2020-12-31" });
    expect(byAction.total).toBe(2);
    const bySystem = await list({ actorKind: "system", to: "2020-12-31" });
    expect(bySystem.items.map((e: { at: string }) => e.at)).toEqual([
      new Date("2020-03-11T23:01:00Z").toISOString(),
      new Date("2020-03-10T22:30:00Z").toISOString(),
    ]);
    const byAdmin = await list({ actorId: admin.id, entity: "package" });
    expect(byAdmin.items.map((e: { action: string }) => e.action)).toEqual([
      "package.delete",
      "package.save",
      "package.create",
    ]);
    expect(byAdmin.items.every((e: { actor: string }) => e.actor === "Anna Admin")).toBe(true);
    expect(byAdmin.items[1].lines).toEqual(["Name: Paket A → Paket B"]);
    expect((await list({ actorId: actorGone.id })).total).toBe(0);
  });

  it("lists the admins for the actor filter", async () => {
    const actors = await ok(trpcQuery(t, "admin.audit.listActors", undefined, asAdmin()));
    expect(actors).toContainEqual({ id: admin.id, name: "Anna Admin" });
  });

  it("only admins read it", async () => {
    expect((await trpcQuery(t, "admin.audit.list", {}, { token: visitorToken })).status).toBe(403);
    expect((await trpcQuery(t, "admin.audit.list", {})).status).toBe(401);
    expect((await trpcQuery(t, "admin.audit.listActors", undefined, { token: visitorToken })).status).toBe(
      403,
    );
  });
});
