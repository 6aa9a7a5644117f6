import { schema } from "@app/db";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../src/mail-delivery/outbox";
import { createTestApp, type TestApp } from "../src/testing/harness";
import { until } from "./lib/wait";

const { mailOutbox } = schema;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t?.close();
});

const REGISTRATIONS = 5;
const DIRECT_MAILS = 15;

function registerForm(email: string) {
  const boundary = "----fault-boundary";
  const user = {
    firstname: "Sophie",
    lastname: "Störung",
    email,
    password: "sicheres-Passwort-1",
    dataProtection: true,
    newsletter: false,
  };
  return {
    method: "POST" as const,
    url: "/api/register",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="user"\r\n\r\n${JSON.stringify(user)}\r\n--${boundary}--\r\n`,
  };
}

const rowsOf = (ids: number[]) => t.db.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));

/** The Message-ID deliverOutboxMail gives an outbox row (stable across retries). */
const messageIdOf = (row: { id: number; idempotencyKey: string }) =>
  `<${row.idempotencyKey.replace(/[^\w.-]/g, "-")}.${row.id}@kongress-plattform>`;

describe("SMTP outage", () => {
  it("keeps every mail queued while SMTP is down and delivers each exactly once when it is back", async () => {
    const port = t.smtp.port;
    await t.smtp.stop();
    const run = Date.now().toString(36);

    // mails of real procedures: registrations queue the confirmation and dispatch it after the commit
    for (let i = 0; i < REGISTRATIONS; i++) {
      const res = await t.app.inject(registerForm(`stoerung.${run}.${i}@example.com`));
      expect(res.statusCode, res.body).toBe(201);
    }
    // and mails queued straight into the outbox, each dispatched twice (a retried request, a double click)
    const direct: number[] = [];
    for (let i = 0; i < DIRECT_MAILS; i++) {
      const id = await queueMail(t.db.db, {
        templateName: "password-reset",
        to: `ausfall.${run}.${i}@example.com`,
        variables: { userFullName: `Ada Ausfall ${i}`, url: `http://app.test/resetPassword/${i}` },
        idempotencyKey: `fault-outage:${run}:${i}`,
      });
      expect(id).toBeTypeOf("number");
      direct.push(id ?? 0);
    }
    await t.jobs?.dispatch(direct);
    await t.jobs?.dispatch(direct);

    const registered = await t.db.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.toEmail,
          Array.from({ length: REGISTRATIONS }, (_, i) => `stoerung.${run}.${i}@example.com`),
        ),
      );
    expect(registered).toHaveLength(REGISTRATIONS);
    const ids = [...registered.map((row) => row.id), ...direct];

    // every mail was tried, failed and is still queued with the failure recorded
    await until(async () => (await rowsOf(ids)).every((row) => row.attempts >= 1), 20_000);
    // a little longer, so retries (backoff 1-2 s, then 2-4 s) happen during the outage too
    await new Promise((done) => setTimeout(done, 2500));
    const during = await rowsOf(ids);
    for (const row of during) {
      expect(row.status, `outbox ${row.id}`).toBe("queued");
      expect(row.sentAt).toBeNull();
      expect(row.lastError, `outbox ${row.id}`).toBeTruthy();
    }
    expect(
      during.some((row) => row.attempts >= 2),
      "no retry during the outage",
    ).toBe(true);
    expect(t.smtp.mails).toHaveLength(0);

    await t.smtp.start(port);
    expect(t.smtp.port).toBe(port);

    await until(async () => (await rowsOf(ids)).every((row) => row.status === "sent"), 45_000);
    const after = await rowsOf(ids);
    const expected = after.map(messageIdOf).sort();
    // a late duplicate dispatch of every row sends nothing more
    await t.jobs?.dispatch(ids);
    await new Promise((done) => setTimeout(done, 2000));

    const received = t.smtp.mails.map((mail) => mail.messageId).sort();
    expect(received).toEqual(expected);
    expect(new Set(received).size).toBe(ids.length);
    for (const row of after) {
      expect(row.sentAt).not.toBeNull();
      expect(row.lastError).toBeNull();
    }
  });
});
