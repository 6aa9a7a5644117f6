import { schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/harness";

// A double-click sends the registration twice; a script may send it ten times. Real HTTP requests on a
// listening port, the real database and outbox, the in-process SMTP server (ADR 0086).
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++counter}@example.com`;

function register(email: string): Promise<Response> {
  const form = new FormData();
  form.set(
    "user",
    JSON.stringify({
      firstname: "Erika",
      lastname: "Muster",
      email,
      password: "sicheres-Passwort-1",
      dataProtection: true,
      newsletter: false,
    }),
  );
  return fetch(`${base}/api/register/`, { method: "POST", body: form });
}

async function outboxOf(email: string) {
  return t.db.db
    .select({ template: schema.mailOutbox.templateName, status: schema.mailOutbox.status })
    .from(schema.mailOutbox)
    .where(sql`lower(${schema.mailOutbox.toEmail}) = lower(${email})`);
}

/** Waits until every mail queued for `email` left the outbox, then gives the SMTP server's mails to it. */
async function deliveredTo(email: string) {
  const until = Date.now() + 15_000;
  while ((await outboxOf(email)).some((row) => row.status !== "sent")) {
    if (Date.now() > until) {
      throw new Error(`mail to ${email} not delivered within 15 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return t.smtp.mails.filter((mail) => mail.to.includes(email));
}

describe("registrations of one address at the same moment", () => {
  it.each([2, 10])("%i at once: one account, one confirmation mail, the same answer for each", async (n) => {
    const email = uniqueEmail(`gleichzeitig${n}`);
    const answers = await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await register(email);
        return { status: res.status, body: (await res.json()) as { title: string; detail: string } };
      }),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(201);
    expect(answers[0]?.body.detail).toContain("bestätigen Sie Ihre E-Mail-Adresse");

    const accounts = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(accounts).toHaveLength(1);
    expect(await outboxOf(email)).toEqual([
      { template: "registration-confirmation", status: expect.any(String) },
    ]);
    const mails = await deliveredTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(["Bitte bestätigen Sie Ihre E-Mail-Adresse"]);
  });
});
