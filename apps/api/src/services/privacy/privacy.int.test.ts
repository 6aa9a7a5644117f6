import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { deletedAccountEmail, MSG_PRIVACY } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createPackage,
  createUser,
  multipart,
  packageOrder,
  participate,
  ticketOrder,
  trpcMutation,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
const PASSWORD = "sicheres-Passwort-1";
let passwordHash: string;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t.close();
});

async function visitor(values: Partial<typeof schema.users.$inferInsert> = {}) {
  const user = await createUser(t.db.db, { passwordHash, emailConfirmedAt: new Date(), ...values });
  return { user, token: await t.tokenFor(user.id, user.roles as ("ROLE_USER" | "ROLE_ADMIN")[]) };
}

const consentsOf = (userId: number) =>
  t.db.db
    .select()
    .from(schema.consentRecords)
    .where(eq(schema.consentRecords.userId, userId))
    .orderBy(schema.consentRecords.id);

const count = async (table: string, userId: number) => {
  const result = await t.db.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${userId}`,
  );
  return result.rows[0]?.n;
};

describe("consent history", () => {
  it("records the privacy policy and the newsletter consent given at registration", async () => {
    const email = `consent.${Date.now()}@example.com`;
    const user = { firstname: "Erika", lastname: "Muster", email, password: PASSWORD, dataProtection: true };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/register/",
      ...multipart({ user: JSON.stringify({ ...user, newsletter: true }) }),
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    const consents = await consentsOf(row?.id ?? 0);
    expect(consents.map((c) => [c.kind, c.granted, c.source])).toEqual([
      ["privacy-policy", true, "registration"],
      ["newsletter", true, "registration"],
    ]);
  });

  it("records withdrawal and renewal of the newsletter consent and keeps the history", async () => {
    const { user, token } = await visitor({ newsletter: true, newsletterConsentAt: new Date() });
    const off = await trpcMutation(t, "account.setNewsletter", { newsletter: false }, { token });
    expect(off.data).toEqual({ newsletter: false, detail: MSG_PRIVACY.newsletterOff });
    // the same state again is no new consent
    await trpcMutation(t, "account.setNewsletter", { newsletter: false }, { token });
    await trpcMutation(t, "account.setNewsletter", { newsletter: true }, { token });

    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row?.newsletter).toBe(true);
    expect(row?.newsletterConsentAt).toBeInstanceOf(Date);
    const history = await trpcQuery(t, "account.listConsents", undefined, { token });
    expect(history.data.map((c: { granted: boolean; source: string }) => [c.granted, c.source])).toEqual([
      [false, "profile"],
      [true, "profile"],
    ]);
  });

  it("shows every visitor only their own history", async () => {
    const a = await visitor();
    const b = await visitor();
    await trpcMutation(t, "account.setNewsletter", { newsletter: true }, { token: a.token });
    const ofB = await trpcQuery(t, "account.listConsents", undefined, { token: b.token });
    expect(ofB.data).toEqual([]);
    expect((await trpcQuery(t, "account.listConsents")).status).toBe(401);
  });
});

describe("data export", () => {
  it("holds account, sign-ups, orders, unlocks, consents and mails, and nothing secret or foreign", async () => {
    const { user, token } = await visitor();
    const other = await visitor();
    const congress = await createCongress(t.db.db, { title: "Export-Kongress" });
    const pkg = await createPackage(t.db.db, congress.id, { name: "Export-Paket" });
    await participate(t.db.db, user.id, congress.id);
    await participate(t.db.db, other.user.id, congress.id);
    await ticketOrder(t.db.db, user.id, congress.id, "paid");
    await packageOrder(t.db.db, user.id, pkg.id, "canceled");
    await packageOrder(t.db.db, other.user.id, pkg.id, "paid");
    await t.db.db.insert(schema.packageUnlocks).values({ userId: user.id, congressPackageId: pkg.id });
    await t.db.db
      .insert(schema.attendances)
      .values({ userId: user.id, congressId: congress.id, day: "2026-11-22", source: "webinar" });
    await t.db.db.insert(schema.watchTime).values({
      userId: user.id,
      congressId: congress.id,
      day: "2026-11-22",
      videoKey: "webinar",
      source: "report",
      played: "{[36000,39600)}",
      seconds: 3600,
    });
    const asked = new Date("2026-11-22T10:30:00Z");
    await t.db.db.insert(schema.presenceChecks).values([
      {
        userId: user.id,
        congressId: congress.id,
        day: "2026-11-22",
        seq: 1,
        dueAtSeconds: 600,
        askedAt: asked,
      },
      // a moment not come yet is the server's secret, not data about the participant
      { userId: user.id, congressId: congress.id, day: "2026-11-22", seq: 2, dueAtSeconds: 3000 },
    ]);
    const [check] = await t.db.db
      .insert(schema.learningChecks)
      .values({ packageId: pkg.id })
      .returning({ id: schema.learningChecks.id });
    const submittedAt = new Date("2026-11-23T09:00:00Z");
    await t.db.db.insert(schema.learningCheckAttempts).values({
      checkId: check?.id ?? 0,
      userId: user.id,
      shown: [],
      startedAt: new Date("2026-11-23T08:50:00Z"),
      submittedAt,
      chosen: {},
      scorePercent: 80,
      passed: true,
    });
    await t.db.db.insert(schema.mailOutbox).values({
      idempotencyKey: `export-test-${user.id}`,
      templateName: "participation-confirmation",
      userId: user.id,
      toEmail: user.email,
      variables: { secret: "not exported" },
    });
    await trpcMutation(t, "account.setNewsletter", { newsletter: true }, { token });

    const res = await trpcQuery(t, "account.export", undefined, { token });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.account).toMatchObject({ id: user.id, email: user.email, firstname: user.firstname });
    expect(data.participations).toEqual([expect.objectContaining({ congress: "Export-Kongress" })]);
    expect(data.ticketOrders).toEqual([
      expect.objectContaining({ congress: "Export-Kongress", status: "paid" }),
    ]);
    expect(data.packageOrders).toEqual([
      expect.objectContaining({ congressPackage: "Export-Paket", status: "canceled" }),
    ]);
    expect(data.packageUnlocks).toEqual([expect.objectContaining({ congressPackage: "Export-Paket" })]);
    expect(data.attendance).toEqual([
      expect.objectContaining({ congress: "Export-Kongress", day: "2026-11-22" }),
    ]);
    expect(data.watchTime).toEqual([
      expect.objectContaining({
        congress: "Export-Kongress",
        day: "2026-11-22",
        seconds: 3600,
        source: "report",
      }),
    ]);
    expect(data.presenceChecks).toEqual([
      { congress: "Export-Kongress", day: "2026-11-22", askedAt: asked.toISOString(), answeredAt: null },
    ]);
    expect(data.learningChecks).toEqual([
      expect.objectContaining({ congressPackage: "Export-Paket", day: null, scorePercent: 80, passed: true }),
    ]);
    expect(data.consents).toEqual([expect.objectContaining({ kind: "newsletter", granted: true })]);
    expect(data.mails).toEqual([
      expect.objectContaining({ template: "participation-confirmation", to: user.email, status: "queued" }),
    ]);
    for (const secret of [passwordHash, user.digistoreHash, other.user.email, "not exported"]) {
      expect(res.body).not.toContain(secret);
    }
  });
});

describe("account deletion", () => {
  const remove = (token: string, password = PASSWORD) =>
    trpcMutation(t, "account.delete", { password }, { token, ip: "10.9.0.1" });

  it("refuses a wrong password in German and keeps everything", async () => {
    const { user, token } = await visitor();
    const res = await remove(token, "falsch");
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ title: MSG_PRIVACY.deleteTitle, detail: MSG_PRIVACY.passwordWrong });
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row?.email).toBe(user.email);
  });

  it("stops guessing after 10 wrong passwords", async () => {
    const { token } = await visitor();
    for (let i = 0; i < 10; i++) {
      expect((await remove(token, `falsch-${i}`)).status).toBe(400);
    }
    expect((await remove(token)).status).toBe(429);
  });

  it("removes an account without orders completely", async () => {
    const { user, token } = await visitor({ newsletter: true });
    const congress = await createCongress(t.db.db);
    await participate(t.db.db, user.id, congress.id);
    await t.db.db.insert(schema.refreshTokens).values({
      userId: user.id,
      familyId: "f",
      tokenHash: `h-${user.id}`,
      expiresAt: new Date(Date.now() + 60_000),
    });

    const res = await remove(token);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ title: MSG_PRIVACY.deleteTitle, detail: MSG_PRIVACY.accountDeleted });
    expect(await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id))).toEqual([]);
    for (const table of ["participations", "refresh_tokens", "consent_records"]) {
      expect(await count(table, user.id)).toBe(0);
    }
    // the token still verifies, but the account behind it is gone
    expect((await trpcQuery(t, "account.getProfile", undefined, { token })).status).toBe(401);
  });

  it("keeps orders of a deleted account anonymised and removes everything else", async () => {
    const { user, token } = await visitor({ firstname: "Greta", lastname: "Geheim" });
    const congress = await createCongress(t.db.db);
    const pkg = await createPackage(t.db.db, congress.id);
    await participate(t.db.db, user.id, congress.id);
    await ticketOrder(t.db.db, user.id, congress.id, "paid");
    await packageOrder(t.db.db, user.id, pkg.id, "paid");
    await t.db.db.insert(schema.packageUnlocks).values({ userId: user.id, congressPackageId: pkg.id });
    await t.db.db
      .insert(schema.attendances)
      .values({ userId: user.id, congressId: congress.id, day: "2026-11-23", source: "video" });
    await t.db.db.insert(schema.watchTime).values({
      userId: user.id,
      congressId: congress.id,
      day: "2026-11-23",
      videoKey: "webinar",
      source: "report",
    });
    await t.db.db
      .insert(schema.presenceChecks)
      .values({ userId: user.id, congressId: congress.id, day: "2026-11-23", seq: 1, dueAtSeconds: 60 });
    const [check] = await t.db.db
      .insert(schema.learningChecks)
      .values({ packageId: pkg.id })
      .returning({ id: schema.learningChecks.id });
    await t.db.db
      .insert(schema.learningCheckAttempts)
      .values({ checkId: check?.id ?? 0, userId: user.id, shown: [] });
    await trpcMutation(t, "account.setNewsletter", { newsletter: true }, { token });
    await t.db.db.insert(schema.mailOutbox).values({
      idempotencyKey: `delete-test-${user.id}`,
      templateName: "participation-confirmation",
      userId: user.id,
      toEmail: user.email,
    });
    await t.db.db.insert(schema.paymentNotifications).values({
      event: "payment",
      orderId: "ORDER-DEL-1",
      custom: `uid-${user.digistoreHash}-pid-1-cat-ticket`,
      signatureValid: true,
      payload: {
        order_id: "ORDER-DEL-1",
        amount: "49.00",
        email: user.email,
        buyer_email: user.email,
        address_first_name: "Greta",
        address_last_name: "Geheim",
        address_street: "Geheimweg 1",
      },
    });
    const loginKey = `login:account:${user.email.toLowerCase()}`;
    await t.db.db.insert(schema.rateLimits).values({ key: loginKey, windowStart: new Date(), hits: 1 });

    expect((await remove(token)).status).toBe(200);

    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row).toMatchObject({
      firstname: "Gelöschtes",
      lastname: "Konto",
      email: deletedAccountEmail(user.id),
      passwordHash: null,
      active: false,
      newsletter: false,
      roles: ["ROLE_USER"],
    });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await count("congress_ticket_orders", user.id)).toBe(1);
    expect(await count("congress_package_orders", user.id)).toBe(1);
    for (const table of [
      "participations",
      "package_unlocks",
      "consent_records",
      "mail_outbox",
      "refresh_tokens",
      "attendances",
      "watch_time",
      "presence_checks",
      "learning_check_attempts",
    ]) {
      expect(await count(table, user.id), table).toBe(0);
    }
    const [notification] = await t.db.db
      .select()
      .from(schema.paymentNotifications)
      .where(eq(schema.paymentNotifications.orderId, "ORDER-DEL-1"));
    expect(notification?.payload).toEqual({ order_id: "ORDER-DEL-1", amount: "49.00" });
    expect(await t.db.db.select().from(schema.rateLimits).where(eq(schema.rateLimits.key, loginKey))).toEqual(
      [],
    );
    const everything = JSON.stringify(
      (await t.db.db.execute(sql`SELECT to_jsonb(u) AS u FROM users u WHERE id = ${user.id}`)).rows,
    );
    for (const personal of [user.email, "Greta", "Geheim"]) {
      expect(everything).not.toContain(personal);
    }

    // the address is free again, and admins cannot bring the deleted account back
    const admin = await visitor({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const revived = await trpcMutation(t, "admin.users.setActive", { id: user.id, active: true }, admin);
    expect(revived.status).toBe(404);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/register/",
      ...multipart({
        user: JSON.stringify({
          firstname: "Greta",
          lastname: "Neu",
          email: user.email,
          password: PASSWORD,
          dataProtection: true,
        }),
      }),
    });
    expect(again.statusCode).toBe(201);
  });

  it("keeps the last active admin", async () => {
    await t.db.db.execute(sql`UPDATE users SET active = false WHERE 'ROLE_ADMIN' = ANY(roles)`);
    const first = await visitor({ roles: ["ROLE_USER", "ROLE_ADMIN"], active: true });
    const second = await visitor({ roles: ["ROLE_USER", "ROLE_ADMIN"], active: true });
    expect((await remove(first.token)).status).toBe(200);
    const last = await remove(second.token);
    expect(last.status).toBe(409);
    expect(last.error?.detail).toBe(MSG_PRIVACY.lastAdmin);
  });
});

describe("legal pages", () => {
  it("shows a starting text until an admin saves one", async () => {
    const page = await trpcQuery(t, "legal.getPage", { slug: "barrierefreiheit" });
    expect(page.data).toMatchObject({ title: "Erklärung zur Barrierefreiheit", updatedAt: null });
    expect(page.data.html).toContain("Marktüberwachungsstelle");
  });

  it("stores sanitised HTML: no scripts, handlers or images from elsewhere", async () => {
    const admin = await visitor({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const html = [
      "<h2>Verantwortlich</h2><p onclick='x()'>Kongress GmbH <script>alert(1)</script></p>",
      '<p><a href="javascript:alert(1)">böse</a> <a href="mailto:kontakt@example.com">Kontakt</a></p>',
      '<img src="https://tracker.example.net/p.gif"><img src="https://app.test/uploads/images/logo.webp" alt="Logo">',
    ].join("");
    const saved = await trpcMutation(t, "admin.legalPages.save", { slug: "impressum", html }, admin);
    expect(saved.status).toBe(200);
    const page = await trpcQuery(t, "legal.getPage", { slug: "impressum" });
    expect(page.data.updatedAt).not.toBeNull();
    expect(page.data.html).toBe(
      "<h2>Verantwortlich</h2><p>Kongress GmbH </p>" +
        '<p><a>böse</a> <a href="mailto:kontakt@example.com">Kontakt</a></p>' +
        '<img src="/uploads/images/logo.webp" alt="Logo" />',
    );
  });

  it("refuses a page that is empty once sanitised, and visitors", async () => {
    const admin = await visitor({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const empty = await trpcMutation(
      t,
      "admin.legalPages.save",
      { slug: "datenschutz", html: "<script>x</script>" },
      admin,
    );
    expect(empty.status).toBe(400);
    expect(empty.error?.detail).toBe(MSG_PRIVACY.legalPageEmpty);
    const { token } = await visitor();
    const refused = await trpcMutation(
      t,
      "admin.legalPages.save",
      { slug: "datenschutz", html: "<p>x</p>" },
      { token },
    );
    expect(refused.status).toBe(403);
  });
});
