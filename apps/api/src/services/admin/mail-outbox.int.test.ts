import { schema } from "@app/db";
import { MAIL_MAX_ATTEMPTS, MSG_OUTBOX } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverOutboxMail } from "../../mail-delivery/deliver";
import { queueMail } from "../../mail-delivery/outbox";
import { createMailTransport } from "../../mail-delivery/transport";
import { adminAndVisitor, createUser, trpcMutation, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/** ADR 0046: failing mails end as `failed`, the admin sees the outbox masked and can resend. */

let t: TestApp;
const db = () => t.db.db;
const { mailOutbox } = schema;
let adminId: number;
let adminToken: string;
let visitorToken: string;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;
const asAdmin = () => ({ token: adminToken });

beforeAll(async () => {
  t = await createTestApp({ mail: true });
  ({ adminId, adminToken, visitorToken } = await adminAndVisitor(t));
});
afterAll(async () => {
  await t?.close();
});

const rowOf = async (id: number) => {
  const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
};

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) {
      throw new Error("condition not met in time");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A password-reset mail to `to` (an account of that address), queued but not dispatched (the test drives
 * the delivery itself); a resend makes a fresh link for the account (ADR 0091).
 */
async function queued(to: string): Promise<number> {
  const user = await createUser(db(), { email: to });
  const id = await queueMail(db(), {
    templateName: "password-reset",
    to,
    userId: user.id,
    variables: { userFullName: "Rita Refused", url: "http://app.test/resetPassword/x" },
    idempotencyKey: `outbox-test:${unique()}`,
  });
  if (id === null) {
    throw new Error("not queued");
  }
  return id;
}

describe("mail outbox", { timeout: 60_000 }, () => {
  const to = `abgelehnt.${Date.now()}@example.com`;
  let failedId: number;

  it(`gives a mail up as failed after ${MAIL_MAX_ATTEMPTS} refused attempts`, async () => {
    t.smtp.refuse.add(to);
    failedId = await queued(to);
    const transport = createMailTransport(t.smtp.url);
    try {
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
        await expect(
          deliverOutboxMail(
            { db: db(), clock: t.clock },
            transport,
            t.env.MAIL_FROM,
            failedId,
            t.env.APP_URL,
          ),
        ).rejects.toThrow(/rejected/);
        const row = await rowOf(failedId);
        expect(row?.attempts).toBe(attempt);
        expect(row?.status).toBe(attempt < MAIL_MAX_ATTEMPTS ? "queued" : "failed");
      }
      // a failed mail is not tried again (a late job or the sweeper finds nothing to send)
      expect(
        await deliverOutboxMail(
          { db: db(), clock: t.clock },
          transport,
          t.env.MAIL_FROM,
          failedId,
          t.env.APP_URL,
        ),
      ).toBe("skipped");
      expect((await rowOf(failedId))?.attempts).toBe(MAIL_MAX_ATTEMPTS);
    } finally {
      transport.close();
    }
  });

  it("lists mails with the recipient masked except for the domain, filtered by status and template", async () => {
    const answer = await trpcQuery(t, "admin.mailOutbox.list", { status: "failed" }, asAdmin());
    expect(answer.status, answer.body).toBe(200);
    const item = answer.data.items.find((m: { id: number }) => m.id === failedId);
    expect(item).toMatchObject({
      recipient: "***@example.com",
      templateName: "password-reset",
      templateDescription: "Link zum Zurücksetzen des Passworts (eine Stunde gültig).",
      status: "failed",
      statusLabel: "fehlgeschlagen",
      attempts: MAIL_MAX_ATTEMPTS,
      sentAt: null,
    });
    expect(item.lastError).toMatch(/\*\*\*@example\.com/);
    expect(answer.body).not.toContain(to);
    expect(answer.data.items.every((m: { status: string }) => m.status === "failed")).toBe(true);

    const other = await trpcQuery(t, "admin.mailOutbox.list", { template: "event-day" }, asAdmin());
    expect(other.data.items.some((m: { id: number }) => m.id === failedId)).toBe(false);
    const sameTemplate = await trpcQuery(
      t,
      "admin.mailOutbox.list",
      { template: "password-reset" },
      asAdmin(),
    );
    expect(sameTemplate.data.items.some((m: { id: number }) => m.id === failedId)).toBe(true);
  });

  it("resends only failed mails", async () => {
    const waiting = await queued(`wartend.${unique()}@example.com`);
    const refused = await trpcMutation(t, "admin.mailOutbox.resend", { id: waiting }, asAdmin());
    expect(refused.status).toBe(409);
    expect(refused.error?.detail).toBe(MSG_OUTBOX.onlyFailed);
    const missing = await trpcMutation(t, "admin.mailOutbox.resend", { id: 2_000_000_000 }, asAdmin());
    expect(missing.status).toBe(404);
    expect(missing.error?.detail).toBe(MSG_OUTBOX.notFound);
    const entries = await db().$count(schema.auditLog, eq(schema.auditLog.action, "mail.resend"));
    expect(entries).toBe(0);
  });

  it("resends a failed mail: back to the queue, delivered once SMTP accepts, audited", async () => {
    t.smtp.refuse.delete(to);
    const answer = await trpcMutation(t, "admin.mailOutbox.resend", { id: failedId }, asAdmin());
    expect(answer.status, answer.body).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(to), 20_000);
    expect(mail.subject).toBe("Passwort zurücksetzen");
    await until(async () => (await rowOf(failedId))?.status === "sent");
    expect((await rowOf(failedId))?.attempts).toBe(1);
    const [entry] = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "mail.resend"), eq(schema.auditLog.entityId, String(failedId))));
    expect(entry).toMatchObject({
      actorId: adminId,
      entity: "mail",
      changes: { status: ["failed", "queued"], attempts: [MAIL_MAX_ATTEMPTS, 0] },
    });
    // a sent mail cannot be resent
    expect((await trpcMutation(t, "admin.mailOutbox.resend", { id: failedId }, asAdmin())).status).toBe(409);
  });

  it("only admins see and resend", async () => {
    expect((await trpcQuery(t, "admin.mailOutbox.list", {}, { token: visitorToken })).status).toBe(403);
    expect((await trpcQuery(t, "admin.mailOutbox.list", {})).status).toBe(401);
    const resend = await trpcMutation(
      t,
      "admin.mailOutbox.resend",
      { id: failedId },
      { token: visitorToken },
    );
    expect(resend.status).toBe(403);
  });
});
