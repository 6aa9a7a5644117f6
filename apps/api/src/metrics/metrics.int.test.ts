import { hashPassword } from "@app/db/password";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../mail-delivery/outbox";
import { digistoreSignature } from "../services/commerce/signature";
import { createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

/** The operators' metrics (ADR 0101) on the real app and database, with pg-boss running. */
const TOKEN = "metrics-test-token-0123456789abcdef-0123456789";
const PASSWORD = "Richtiges-Passwort-1";
let t: TestApp;
let ipSeq = 0;
const nextIp = () => `198.51.100.${++ipSeq}`;

beforeAll(async () => {
  t = await createTestApp({ mail: true, env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.app.inject({ url: "/metrics", headers: authorization ? { authorization } : {} });

/** The text of a scrape with the right token. */
async function metrics(): Promise<string> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of one sample: `name{labels} value`, the labels matched by their pairs in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] === name && pairs.every((pair) => (match[2] ?? "").split(",").includes(pair))) {
      return Number(match[3]);
    }
  }
  return undefined;
}

const login = (email: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress: nextIp(),
  });

describe("GET /metrics", () => {
  it("does not exist while METRICS_TOKEN is unset", { timeout: 30_000 }, async () => {
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        title: "Nicht gefunden",
        detail: "Die angeforderte Ressource wurde nicht gefunden.",
      });
    } finally {
      await off.close();
    }
  });

  it("refuses a missing or wrong token with 401 and a German body", async () => {
    const wrong = [
      undefined,
      "",
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}X`,
      `Bearer ${TOKEN} ${TOKEN}`,
    ];
    for (const authorization of wrong) {
      const res = await scrape(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.json()).toEqual({
        title: "Kein Zugriff auf die Metriken",
        detail: expect.stringContaining("Authorization: Bearer"),
      });
      expect(res.body).not.toContain("kongress_");
    }
    const right = await scrape(`bearer  ${TOKEN}`);
    expect(right.statusCode).toBe(200);
    expect(right.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("lists the series an operator watches during the rush", async () => {
    await login("niemand@example.com", "falsch");
    const text = await metrics();
    for (const name of [
      "http_request_duration_seconds_bucket",
      "http_request_duration_seconds_count",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
      "process_resident_memory_bytes",
      "kongress_db_pool_waiting",
      "kongress_db_pool_max",
      "kongress_metrics_database_up",
      "kongress_mail_outbox_backlog",
      "kongress_mail_outbox_oldest_age_seconds",
    ]) {
      expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, "kongress_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "kongress_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "kongress_metrics_database_up")).toBe(1);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(1_000_000);
    for (const queue of ["mail-send", "deferred-mail", "privacy-retention"]) {
      expect(
        sample(text, "kongress_job_queue_depth", { queue, state: "queued" }),
        queue,
      ).toBeGreaterThanOrEqual(0);
      expect(
        sample(text, "kongress_job_queue_depth", { queue, state: "active" }),
        queue,
      ).toBeGreaterThanOrEqual(0);
    }
    for (const outcome of ["session", "invalid_credentials", "rate_limited", "two_factor_required"]) {
      expect(sample(text, "kongress_logins_total", { outcome }), outcome).toBeGreaterThanOrEqual(0);
    }
    for (const outcome of ["processed", "ignored", "invalid_signature", "failed"]) {
      expect(sample(text, "kongress_ipn_notifications_total", { outcome }), outcome).toBeGreaterThanOrEqual(
        0,
      );
    }
    // route patterns, never a path with its values
    expect(
      sample(text, "http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/auth/login",
        status_code: "401",
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("moves with logins, refusals, payment notifications, queued mails and jobs", {
    timeout: 60_000,
  }, async () => {
    const users = await Promise.all(
      [1, 2, 3, 4].map(async () => createUser(t.db.db, { passwordHash: await hashPassword(PASSWORD) })),
    );
    const before = await metrics();
    const count = (text: string, name: string, labels: Record<string, string>) =>
      sample(text, name, labels) ?? 0;

    // a short load: four logins side by side, two wrong passwords, one unknown address
    const answers = await Promise.all([
      ...users.map((user) => login(user.email, PASSWORD)),
      login(users[0]?.email ?? "", "falsch"),
      login(users[1]?.email ?? "", "falsch"),
      login("unbekannt@example.com", PASSWORD),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 401, 401, 401]);
    // a visitor's page asked without a session, counted by its route pattern: never /api/congress/123456
    await t.app.inject({ url: "/api/congress/123456" });
    // payment notifications: a forged one, a connection test, one for nobody we know
    const ipn = (fields: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/digistore/ipn",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(fields).toString(),
      });
    expect((await ipn({ event: "on_payment", sha_sign: "gefälscht" })).statusCode).toBe(403);
    const signed = (fields: Record<string, string>) => ({
      ...fields,
      sha_sign: digistoreSignature(fields, t.env.DIGISTORE_IPN_PASSPHRASE),
    });
    expect((await ipn(signed({ event: "connection_test" }))).statusCode).toBe(200);
    expect(
      (await ipn(signed({ event: "on_payment", order_id: "M-1", custom: "uid-x|pid-1|cat-tic" }))).statusCode,
    ).toBe(200);
    // a mail in the outbox that nobody dispatches (the sweeper takes it only after a minute), and a job
    // in a queue no worker serves
    await queueMail(t.db.db, {
      templateName: "registration-confirmation",
      to: "warteschlange@example.com",
      variables: {},
      idempotencyKey: `metrics-test-${Date.now()}`,
    });
    const boss = t.jobs?.boss;
    await boss?.createQueue("metrics-test");
    await boss?.send("metrics-test", {});
    await boss?.send("metrics-test", {});

    const after = await metrics();
    const moved = (name: string, labels: Record<string, string>) =>
      count(after, name, labels) - count(before, name, labels);
    expect(moved("kongress_logins_total", { outcome: "session" })).toBe(4);
    expect(moved("kongress_logins_total", { outcome: "invalid_credentials" })).toBe(3);
    expect(
      moved("http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/auth/login",
        status_code: "200",
      }),
    ).toBe(4);
    expect(
      moved("http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/congress/:id",
        status_code: "401",
      }),
    ).toBe(1);
    expect(after).not.toContain("123456");
    expect(moved("kongress_ipn_notifications_total", { outcome: "invalid_signature" })).toBe(1);
    expect(moved("kongress_ipn_notifications_total", { outcome: "connection_test" })).toBe(1);
    expect(moved("kongress_ipn_notifications_total", { outcome: "ignored" })).toBe(1);
    expect(moved("kongress_mail_outbox_backlog", {})).toBeGreaterThanOrEqual(1);
    expect(sample(after, "kongress_mail_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(after, "kongress_job_queue_depth", { queue: "metrics-test", state: "queued" })).toBe(2);
  });

  it("shows the database pool in use and waiting", async () => {
    const pool = t.db.db.$client;
    const held = await Promise.all(Array.from({ length: pool.options.max ?? 0 }, () => pool.connect()));
    const waiting = pool.query("SELECT 1");
    const scraped = metrics();
    // the scrape reads the pool first, then waits for a connection like any request
    setTimeout(() => {
      for (const client of held) {
        client.release();
      }
    }, 200);
    const text = await scraped;
    await waiting;
    expect(sample(text, "kongress_db_pool_connections", { state: "in_use" })).toBe(pool.options.max);
    expect(sample(text, "kongress_db_pool_waiting")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "kongress_db_pool_max")).toBe(pool.options.max);
  });
});
