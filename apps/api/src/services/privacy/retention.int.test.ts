import { randomBytes } from "node:crypto";
import { schema } from "@app/db";
import { eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETENTION_CRON, RETENTION_QUEUE, startJobs } from "../../jobs/boss";
import { hashToken, newToken } from "../../lib/tokens";
import { createMailTransport } from "../../mail-delivery/transport";
import { createCongress, createPackage, createUser, packageOrder, ticketOrder } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { ORPHANED_IMAGE_GRACE_HOURS, storeImage } from "../admin/images";
import { FORTBILDUNG_RECORD_YEARS, OPEN_ATTEMPT_DAYS, runRetention } from "./retention";

const {
  users,
  refreshTokens,
  passwordResetTokens,
  emailConfirmationTokens,
  rateLimits,
  mailOutbox,
  images,
  mailTemplates,
  legalPages,
  congressContents,
} = schema;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.db.db;
const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);

/** A registration that was never confirmed, `days` old. */
const unconfirmed = (days: number, values: Partial<typeof users.$inferInsert> = {}) =>
  createUser(db(), { active: false, emailConfirmedAt: null, createdAt: ago(days * DAY), ...values });

async function existing(ids: number[]): Promise<number[]> {
  const rows = await db().select({ id: users.id }).from(users).where(inArray(users.id, ids));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

async function count(
  table: typeof refreshTokens | typeof passwordResetTokens | typeof emailConfirmationTokens,
) {
  const result = await db().select({ n: sql<number>`count(*)::int` }).from(table);
  return result[0]?.n ?? 0;
}

describe("privacy retention", () => {
  it("deletes registrations never confirmed after 30 days and keeps every other account", async () => {
    const old = await unconfirmed(31);
    // what hangs on it goes with it (ON DELETE CASCADE)
    await db()
      .insert(emailConfirmationTokens)
      .values({
        userId: old.id,
        tokenHash: hashToken(newToken()),
        expiresAt: ago(20 * DAY),
      });
    await db()
      .insert(mailOutbox)
      .values({
        idempotencyKey: `registration:${old.id}`,
        templateName: "registration-confirmation",
        toEmail: old.email,
        userId: old.id,
      });

    const young = await unconfirmed(29);
    const confirmed = await createUser(db(), { createdAt: ago(400 * DAY), emailConfirmedAt: ago(399 * DAY) });
    const switchedOff = await createUser(db(), {
      active: false,
      createdAt: ago(400 * DAY),
      emailConfirmedAt: ago(399 * DAY),
    });
    const migrated = await unconfirmed(400, { migrationHash: "legacy-hash", passwordHash: null });
    const admin = await unconfirmed(400, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const congress = await createCongress(db());
    const withTicket = await unconfirmed(60);
    await ticketOrder(db(), withTicket.id, congress.id, "canceled");
    const withPackage = await unconfirmed(60);
    await packageOrder(db(), withPackage.id, (await createPackage(db(), congress.id)).id, "paid");
    const anonymised = await unconfirmed(60, { deletedAt: ago(DAY) });
    const kept = [young, confirmed, switchedOff, migrated, admin, withTicket, withPackage, anonymised].map(
      (u) => u.id,
    );

    const counts = await runRetention(db());
    expect(counts.unconfirmedAccounts).toBe(1);
    expect(await existing([old.id])).toEqual([]);
    expect(await existing(kept)).toEqual([...kept].sort((a, b) => a - b));
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.userId, old.id))).toEqual([]);
  });

  it("deletes expired and spent tokens and finished rate-limit windows, keeps the usable ones", async () => {
    const user = await createUser(db());
    const token = (expiresAt: Date, extra: { usedAt?: Date } = {}) => ({
      userId: user.id,
      tokenHash: hashToken(newToken()),
      expiresAt,
      ...extra,
    });
    await db()
      .insert(refreshTokens)
      .values([
        { ...token(ago(1000)), familyId: "f-expired" },
        // rotated but not expired: kept, a reuse must still revoke its family
        { ...token(ahead(DAY)), familyId: "f-live", rotatedAt: ago(60_000) },
        { ...token(ahead(DAY)), familyId: "f-live" },
      ]);
    await db()
      .insert(passwordResetTokens)
      .values([token(ago(1000)), token(ahead(3600_000), { usedAt: ago(1000) }), token(ahead(3600_000))]);
    await db()
      .insert(emailConfirmationTokens)
      .values([token(ago(1000)), token(ahead(DAY), { usedAt: ago(1000) }), token(ahead(DAY))]);
    await db()
      .insert(rateLimits)
      .values([
        { key: "register:ip:203.0.113.9", windowStart: ago(2 * 3600_000), hits: 3 },
        { key: "login:account:someone@example.com", windowStart: ago(60_000), hits: 2 },
      ]);
    const before = {
      refresh: await count(refreshTokens),
      reset: await count(passwordResetTokens),
      confirmation: await count(emailConfirmationTokens),
    };

    const counts = await runRetention(db());
    expect(counts).toMatchObject({
      refreshTokens: 1,
      passwordResetTokens: 2,
      emailConfirmationTokens: 2,
      rateLimits: 1,
    });
    expect(await count(refreshTokens)).toBe(before.refresh - 1);
    expect(await count(passwordResetTokens)).toBe(before.reset - 2);
    expect(await count(emailConfirmationTokens)).toBe(before.confirmation - 2);
    const limits = await db().select({ key: rateLimits.key }).from(rateLimits);
    expect(limits.map((row) => row.key)).toEqual(["login:account:someone@example.com"]);
  });

  it("empties sent mails after 30 days and strips buyers from payment notifications after 90", async () => {
    const user = await createUser(db());
    const mail = (key: string, status: string, sentDaysAgo: number | null) => ({
      idempotencyKey: `${key}-${user.id}`,
      templateName: "password-reset",
      userId: user.id,
      toEmail: user.email,
      variables: { firstname: "Rosa", url: "https://app.test/resetPassword/geheim" },
      status,
      sentAt: sentDaysAgo === null ? null : ago(sentDaysAgo * DAY),
    });
    await db()
      .insert(mailOutbox)
      .values([mail("old", "sent", 31), mail("recent", "sent", 29), mail("waiting", "queued", null)]);
    const buyer = { order_id: "R-1", amount: "49.00", email: "rosa@example.com", address_first_name: "Rosa" };
    const { paymentNotifications } = schema;
    await db()
      .insert(paymentNotifications)
      .values([
        { event: "payment", orderId: "R-1", signatureValid: true, payload: buyer, receivedAt: ago(91 * DAY) },
        { event: "payment", orderId: "R-2", signatureValid: true, payload: buyer, receivedAt: ago(89 * DAY) },
      ]);

    expect(await runRetention(db())).toMatchObject({ sentMailContents: 1, paymentNotifications: 1 });
    const mails = await db()
      .select({ key: mailOutbox.idempotencyKey, variables: mailOutbox.variables })
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, user.id));
    expect(
      Object.fromEntries(mails.map((m) => [m.key.split("-")[0], Object.keys(m.variables).length])),
    ).toEqual({
      old: 0,
      recent: 2,
      waiting: 2,
    });
    const notes = await db()
      .select({ orderId: paymentNotifications.orderId, payload: paymentNotifications.payload })
      .from(paymentNotifications)
      .where(inArray(paymentNotifications.orderId, ["R-1", "R-2"]));
    expect(Object.fromEntries(notes.map((n) => [n.orderId, n.payload]))).toEqual({
      "R-1": { order_id: "R-1", amount: "49.00" },
      "R-2": buyer,
    });
  });

  it("deletes pictures nothing refers to once a day old, keeping referred and recent ones", async () => {
    const HOUR = 60 * 60 * 1000;
    /** a stored picture row uploaded `hours` ago (the bytes do not matter here) */
    const image = async (hours: number) => {
      const fileName = `${randomBytes(16).toString("hex")}.webp`;
      await db()
        .insert(images)
        .values({ fileName, mimeType: "image/webp", byteSize: 1, sha256: fileName, data: Buffer.from("x") })
        .returning();
      await db()
        .update(images)
        .set({ createdAt: ago(hours * HOUR) })
        .where(eq(images.fileName, fileName));
      return fileName;
    };
    const old = 2 * 24;
    const tag = (name: string) =>
      `<p>Text</p><img src="https://kongress.example/uploads/images/${name}" alt="">`;

    const congressPicture = await image(old);
    const congressText = await image(old);
    const congress = await createCongress(db(), { picture: congressPicture, description: tag(congressText) });
    const packagePicture = await image(old);
    const packageText = await image(old);
    await createPackage(db(), congress.id, { picture: packagePicture, description: tag(packageText) });
    const templateContent = await image(old);
    const templateDescription = await image(old);
    await db()
      .insert(mailTemplates)
      .values({
        name: "registration-confirmation",
        congressId: congress.id,
        subject: "Willkommen",
        content: tag(templateContent),
        description: `<img src="/uploads/images/${templateDescription}">`,
      });
    const legal = await image(old);
    await db()
      .insert(legalPages)
      .values({ slug: "impressum", html: tag(legal) })
      .onConflictDoUpdate({ target: legalPages.slug, set: { html: tag(legal) } });
    const content = await image(old);
    await db()
      .insert(congressContents)
      .values({
        congressId: congress.id,
        type: "vimeo-url",
        data: { days: [{ name: "Tag 1", exclusive_date: "", videos: [{ url: "", comment: tag(content) }] }] },
      });
    const referred = [
      congressPicture,
      congressText,
      packagePicture,
      packageText,
      templateContent,
      templateDescription,
      legal,
      content,
    ];
    const recent = [await image(1), await image(ORPHANED_IMAGE_GRACE_HOURS - 1)];
    const orphans = [await image(ORPHANED_IMAGE_GRACE_HOURS + 1), await image(30 * 24)];
    // an old orphan uploaded again (an admin picks it for a form not yet saved) starts its grace anew
    const data = await sharp(randomBytes(8 * 8 * 3), { raw: { width: 8, height: 8, channels: 3 } })
      .png()
      .toBuffer();
    const again = await storeImage(db(), data);
    await db()
      .update(images)
      .set({ createdAt: ago(old * HOUR) })
      .where(eq(images.fileName, again));
    expect(await storeImage(db(), data)).toBe(again);

    expect(await runRetention(db())).toMatchObject({ orphanedImages: orphans.length });
    const left = await db()
      .select({ fileName: images.fileName })
      .from(images)
      .where(inArray(images.fileName, [...referred, ...recent, ...orphans, again]));
    expect(left.map((row) => row.fileName).sort()).toEqual([...referred, ...recent, again].sort());
  });

  it("keeps submitted learning-check attempts five years and open ones 30 days", async () => {
    const user = await createUser(db());
    const pkg = await createPackage(db(), (await createCongress(db())).id);
    const [check] = await db().insert(schema.learningChecks).values({ packageId: pkg.id }).returning();
    const years = (n: number) => {
      const at = new Date();
      at.setFullYear(at.getFullYear() - n);
      return at;
    };
    const attempt = (startedAt: Date, submittedAt: Date | null) => ({
      checkId: check?.id ?? 0,
      userId: user.id,
      shown: [],
      startedAt,
      submittedAt,
    });
    const rows = await db()
      .insert(schema.learningCheckAttempts)
      .values([
        attempt(years(FORTBILDUNG_RECORD_YEARS), new Date(years(FORTBILDUNG_RECORD_YEARS).getTime() - DAY)),
        attempt(years(FORTBILDUNG_RECORD_YEARS), new Date(years(FORTBILDUNG_RECORD_YEARS).getTime() + DAY)),
        attempt(ago(60 * DAY), ago(60 * DAY)),
      ])
      .returning({ id: schema.learningCheckAttempts.id });
    // one open attempt per person and check (a unique index): the old and the recent one of two checks
    const [other] = await db()
      .insert(schema.learningChecks)
      .values({ packageId: (await createPackage(db(), pkg.congressId)).id })
      .returning();
    const open = await db()
      .insert(schema.learningCheckAttempts)
      .values([
        attempt(ago((OPEN_ATTEMPT_DAYS + 1) * DAY), null),
        { ...attempt(ago((OPEN_ATTEMPT_DAYS - 1) * DAY), null), checkId: other?.id ?? 0 },
      ])
      .returning({ id: schema.learningCheckAttempts.id });
    const counts = await runRetention(db());
    expect(counts.learningCheckAttempts).toBe(2);
    const left = await db()
      .select({ id: schema.learningCheckAttempts.id })
      .from(schema.learningCheckAttempts)
      .where(eq(schema.learningCheckAttempts.userId, user.id));
    expect(left.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      [rows[1]?.id, rows[2]?.id, open[1]?.id].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
  });

  it("is harmless when run again", async () => {
    expect(await runRetention(db())).toEqual({
      unconfirmedAccounts: 0,
      refreshTokens: 0,
      passwordResetTokens: 0,
      emailConfirmationTokens: 0,
      signInLinks: 0,
      rateLimits: 0,
      sentMailContents: 0,
      paymentNotifications: 0,
      fortbildungRecords: 0,
      learningCheckAttempts: 0,
      orphanedImages: 0,
    });
  });

  it("runs at start-up, is scheduled daily at 3:30 Berlin time, and the scheduled job does the work", async () => {
    const missed = await unconfirmed(45);
    const transport = createMailTransport("smtp://127.0.0.1:1");
    const jobs = await startJobs({
      databaseUrl: t.db.url,
      db: db(),
      transport,
      mailFrom: t.env.MAIL_FROM,
      appUrl: t.env.APP_URL,
      log: t.app.log,
      fast: true,
      env: t.env,
    });
    try {
      expect(await existing([missed.id])).toEqual([]);
      const schedules = await jobs.boss.getSchedules();
      // pg-boss keeps the time zone in a column of its own, next to the cron expression
      expect(schedules.find((s) => s.name === RETENTION_QUEUE)).toMatchObject({
        cron: RETENTION_CRON,
        timezone: "Europe/Berlin",
      });

      const later = await unconfirmed(45);
      await jobs.boss.send(RETENTION_QUEUE, {});
      const end = Date.now() + 15_000;
      while ((await existing([later.id])).length > 0) {
        expect(Date.now()).toBeLessThan(end);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await jobs.stop();
      transport.close();
    }
  }, 30_000);
});
