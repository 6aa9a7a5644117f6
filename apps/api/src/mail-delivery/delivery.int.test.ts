import { schema } from "@app/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/harness";
import { findTemplate } from "./deliver";
import { queueMail } from "./outbox";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t.close();
});

async function outboxRow(to: string) {
  const [row] = await t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toEmail, to));
  return row;
}

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) {
      throw new Error("condition not met in time");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("mail delivery", () => {
  it("keeps a mail while SMTP is down and delivers it exactly once when it is back", async () => {
    const port = t.smtp.port;
    await t.smtp.stop();
    const to = "ausfall@example.com";
    const id = await queueMail(t.db.db, {
      templateName: "password-reset",
      to,
      variables: { userFullName: "Ada Ausfall", url: "http://app.test/resetPassword/x" },
      idempotencyKey: "outage-test",
    });
    await t.jobs?.dispatch([id]);

    await until(async () => ((await outboxRow(to))?.attempts ?? 0) >= 1);
    const failed = await outboxRow(to);
    expect(failed?.status).toBe("queued");
    expect(failed?.lastError).toBeTruthy();

    await t.smtp.start(port);
    const mail = await t.smtp.waitFor((m) => m.to.includes(to), 30_000);
    expect(mail.subject).toBe("Passwort zurücksetzen");
    expect(mail.html).toContain("Ada Ausfall");
    await until(async () => (await outboxRow(to))?.status === "sent");

    // a late duplicate dispatch of the same outbox row sends nothing
    await t.jobs?.dispatch([id]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.smtp.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
  }, 60_000);

  it("queues one mail per idempotency key", async () => {
    const input = {
      templateName: "event-day" as const,
      to: "einmal@example.com",
      variables: { userFullName: "E", congressTitle: "K", url: "u" },
      idempotencyKey: "event-day:1:2026-01-01",
    };
    expect(await queueMail(t.db.db, input)).toBeTypeOf("number");
    expect(await queueMail(t.db.db, input)).toBeNull();
  });

  it("prefers the congress template, then the general one, then the built-in default", async () => {
    const [congress] = await t.db.db
      .insert(schema.congresses)
      .values({ title: "K", firstDay: "2026-05-01" })
      .returning();
    const congressId = congress?.id ?? 0;
    expect((await findTemplate(t.db.db, "event-day", congressId)).subject).toBe("Heute: {{congressTitle}}");

    await t.db.db
      .insert(schema.mailTemplates)
      .values({ name: "event-day", subject: "Allgemein", content: "a" });
    expect((await findTemplate(t.db.db, "event-day", congressId)).subject).toBe("Allgemein");

    await t.db.db
      .insert(schema.mailTemplates)
      .values({ name: "event-day", subject: "Speziell", content: "s", congressId });
    expect((await findTemplate(t.db.db, "event-day", congressId)).subject).toBe("Speziell");
    expect((await findTemplate(t.db.db, "event-day", null)).subject).toBe("Allgemein");
  });
});
