import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  congresses,
  congressPackageOrders,
  congressPackages,
  congressTicketOrders,
  mailTemplates,
  participations,
  users,
} from "./schema";
import { createTestDatabase, type TestDatabase } from "./testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

const pgCode = (error: unknown): string | undefined =>
  (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;

async function expectPgError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected PostgreSQL error ${code}`).toBeDefined();
  expect(pgCode(error)).toBe(code);
}

let counter = 0;
async function user(overrides: Partial<typeof users.$inferInsert> = {}) {
  counter += 1;
  const [row] = await t.db
    .insert(users)
    .values({ email: `u${counter}@example.com`, firstname: "Vera", lastname: "Test", ...overrides })
    .returning();
  if (!row) {
    throw new Error("insert failed");
  }
  return row;
}

async function congress(overrides: Partial<typeof congresses.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(congresses)
    .values({ title: "Kongress", firstDay: "2026-05-01", ...overrides })
    .returning();
  if (!row) {
    throw new Error("insert failed");
  }
  return row;
}

describe("migrations", () => {
  it("create a table for every entity of the spec", async () => {
    const result = await t.db.execute<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    const tables = result.rows.map((r) => r.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "users",
        "congresses",
        "congress_contents",
        "participations",
        "congress_packages",
        "congress_package_orders",
        "congress_ticket_orders",
        "mail_templates",
        "images",
        "refresh_tokens",
        "password_reset_tokens",
        "email_confirmation_tokens",
        "payment_notifications",
      ]),
    );
  });
});

describe("users", () => {
  it("treats e-mail addresses case-insensitively as unique", async () => {
    await user({ email: "Doppelt@Example.com" });
    await expectPgError(user({ email: "doppelt@example.COM" }), "23505");
  });

  it("creates a random, unique digistoreHash and default role for every user", async () => {
    const a = await user();
    const b = await user();
    expect(a.digistoreHash).toMatch(/^[0-9a-f]{32}$/);
    expect(a.digistoreHash).not.toBe(b.digistoreHash);
    expect(a.roles).toEqual(["ROLE_USER"]);
    expect(a.admin).toBe(false);
    expect(a.active).toBe(false);
  });

  it("derives the admin flag from the roles and rejects unknown roles", async () => {
    const admin = await user({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    expect(admin.admin).toBe(true);
    const [demoted] = await t.db
      .update(users)
      .set({ roles: ["ROLE_USER"] })
      .where(eq(users.id, admin.id))
      .returning();
    expect(demoted?.admin).toBe(false);
    await expectPgError(user({ roles: ["ROLE_ROOT"] }), "23514");
  });

  it("removes participations and orders when a user is deleted", async () => {
    const u = await user();
    const c = await congress();
    const [p] = await t.db
      .insert(congressPackages)
      .values({ name: "P", congressId: c.id, externalId: 7 })
      .returning();
    await t.db.insert(participations).values({ userId: u.id, congressId: c.id });
    await t.db
      .insert(congressTicketOrders)
      .values({ userId: u.id, congressId: c.id, externalId: "X1", status: "paid" });
    await t.db
      .insert(congressPackageOrders)
      .values({ userId: u.id, congressPackageId: p?.id ?? 0, externalId: "X2", status: "paid" });

    await t.db.delete(users).where(eq(users.id, u.id));

    const left = await t.db.execute<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM participations WHERE user_id = ${u.id})
           + (SELECT count(*) FROM congress_ticket_orders WHERE user_id = ${u.id})
           + (SELECT count(*) FROM congress_package_orders WHERE user_id = ${u.id}) AS n`);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});

describe("congresses", () => {
  it("allows one participation per user and congress", async () => {
    const u = await user();
    const c = await congress();
    await t.db.insert(participations).values({ userId: u.id, congressId: c.id });
    await expectPgError(t.db.insert(participations).values({ userId: u.id, congressId: c.id }), "23505");
  });

  it("rejects a last day before the first day and a malformed webinar start time", async () => {
    await expectPgError(congress({ firstDay: "2026-05-02", lastDay: "2026-05-01" }), "23514");
    await expectPgError(congress({ webinarStartTime: "25:00" }), "23514");
    const ok = await congress({ webinarStartTime: "09:30", lastDay: null });
    expect(ok.lastDay).toBeNull();
    expect(ok.firstDay).toBe("2026-05-01");
  });

  it("cascades a delete to participations and order-less packages", async () => {
    const u = await user();
    const c = await congress();
    await t.db.insert(participations).values({ userId: u.id, congressId: c.id });
    await t.db.insert(congressPackages).values({ name: "P", congressId: c.id, externalId: 9 });
    await t.db.delete(congresses).where(eq(congresses.id, c.id));
    const left = await t.db.select().from(congressPackages).where(eq(congressPackages.congressId, c.id));
    expect(left).toHaveLength(0);
  });

  it("refuses to delete a congress while ticket or package orders exist", async () => {
    const u = await user();
    const withTicket = await congress();
    await t.db
      .insert(congressTicketOrders)
      .values({ userId: u.id, congressId: withTicket.id, externalId: "T1", status: "paid" });
    await expectPgError(t.db.delete(congresses).where(eq(congresses.id, withTicket.id)), "23001");

    const withPackageOrder = await congress();
    const [p] = await t.db
      .insert(congressPackages)
      .values({ name: "P", congressId: withPackageOrder.id, externalId: 8 })
      .returning();
    await t.db
      .insert(congressPackageOrders)
      .values({ userId: u.id, congressPackageId: p?.id ?? 0, externalId: "P1", status: "canceled" });
    await expectPgError(t.db.delete(congresses).where(eq(congresses.id, withPackageOrder.id)), "23001");
  });
});

describe("orders", () => {
  it("keeps one order per checkout order number and product, but any number of FAKE-ORDERs", async () => {
    const u = await user();
    const c = await congress();
    const order = { userId: u.id, congressId: c.id, status: "paid" };
    await t.db.insert(congressTicketOrders).values({ ...order, externalId: "DS-1" });
    await expectPgError(t.db.insert(congressTicketOrders).values({ ...order, externalId: "DS-1" }), "23505");
    await t.db.insert(congressTicketOrders).values({ ...order, externalId: "FAKE-ORDER" });
    await t.db.insert(congressTicketOrders).values({ ...order, externalId: "FAKE-ORDER" });
  });
});

describe("mail templates", () => {
  it("is unique per internal name and congress, including one general template per name", async () => {
    const c = await congress();
    const template = { name: "welcome", subject: "Hallo", content: "<p>Hallo</p>" };
    await t.db.insert(mailTemplates).values({ ...template, congressId: null });
    await expectPgError(t.db.insert(mailTemplates).values({ ...template, congressId: null }), "23505");
    await t.db.insert(mailTemplates).values({ ...template, congressId: c.id });
    await expectPgError(t.db.insert(mailTemplates).values({ ...template, congressId: c.id }), "23505");
  });
});
