import { createDb, DEMO_LOGINS } from "@app/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type ApiProcess, login, newSecrets, startApi, type Timed, timedFetch } from "./lib/api-process";
import { type FaultDatabase, startFaultDatabase } from "./lib/database";
import { sleep, until } from "./lib/wait";

/** the API's limit for one database answer in these tests (DATABASE_QUERY_TIMEOUT_MS) */
const QUERY_TIMEOUT_MS = 2000;
/** /readyz gives up on the database after 2 s (health.ts) */
const READYZ_LIMIT_MS = 3000;
/** waiting for a pool connection (connectionTimeoutMillis 5 s) plus one query timeout, plus slack */
const REQUEST_LIMIT_MS = 5000 + QUERY_TIMEOUT_MS + 1000;
const WORKERS = 4;

const secrets = newSecrets();
let database: FaultDatabase;
let api: ApiProcess;
let token: string;

beforeAll(async () => {
  database = await startFaultDatabase("restart", { persistent: true, seed: true });
  api = await startApi({
    databaseUrl: database.url,
    secrets,
    env: { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) },
  });
  const session = await login(api, DEMO_LOGINS.participant.email, DEMO_LOGINS.participant.password);
  if (session.status !== 200) {
    throw new Error(`login failed: ${session.status} ${session.body}`);
  }
  token = (JSON.parse(session.body) as { token: string }).token;
});
afterAll(async () => {
  await api?.stop();
  await database?.destroy();
});

interface Sample extends Timed {
  path: string;
}

/** Health checks and a cheap authenticated call (one query), back to back, until stopped. */
function startLoad() {
  const samples: Sample[] = [];
  let running = true;
  const worker = async (n: number) => {
    while (running) {
      const path = n % 2 === 0 ? "/readyz" : "/api/account/profile";
      const answer = await timedFetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      samples.push({ ...answer, path });
      await sleep(20);
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
    /** resolves once /readyz and the call both succeeded again after `since` */
    recovered: (since: number) =>
      until(
        () => {
          const recent = samples.filter((s) => s.startedAt > since);
          return (
            recent.some((s) => s.path === "/readyz" && s.status === 200) &&
            recent.some((s) => s.path === "/api/account/profile" && s.status === 200)
          );
        },
        20_000,
        () =>
          `recovery (last answers: ${JSON.stringify(samples.slice(-6).map((s) => [s.path, s.status, s.ms, s.error]))})`,
      ),
  };
}

/** Every request got an answer within its limit; failures are 5xx with `{title, detail}`, /readyz 503. */
function expectAnsweredInTime(samples: Sample[]): void {
  for (const s of samples) {
    expect(s.status, `${s.path}: no answer (${s.error}) after ${s.ms} ms`).not.toBe(0);
    expect(s.ms, `${s.path} took ${s.ms} ms`).toBeLessThan(
      s.path === "/readyz" ? READYZ_LIMIT_MS : REQUEST_LIMIT_MS,
    );
    if (s.status !== 200) {
      expect(s.status, s.body).toBeGreaterThanOrEqual(500);
      expect(Object.keys(JSON.parse(s.body) as object).sort(), s.path).toEqual(["detail", "title"]);
      if (s.path === "/readyz") {
        expect(s.status).toBe(503);
      }
    }
  }
}

describe("PostgreSQL outage under load", () => {
  it("restart: /readyz answers 503 while the database is down, nothing hangs, the API recovers by itself", async () => {
    onTestFailed(() => {
      console.log(`API output:\n${api.output()}`);
    });
    const pid = api.child.pid;
    const load = startLoad();
    try {
      await sleep(1000);
      const stopping = Date.now();
      await database.stop();
      const downFrom = Date.now();
      await sleep(4000);
      const downUntil = Date.now();
      await database.restart();
      const restartedAt = Date.now();
      await load.recovered(restartedAt);
      const recoveredAt = Date.now();
      await sleep(1000);
      await load.stop();

      const { samples } = load;
      const before = samples.filter((s) => s.startedAt + s.ms < stopping);
      const down = samples.filter((s) => s.startedAt > downFrom && s.startedAt + s.ms < downUntil);
      const after = samples.filter((s) => s.startedAt > recoveredAt);
      expect(before.length).toBeGreaterThan(0);
      expect(before.every((s) => s.status === 200)).toBe(true);
      expect(down.filter((s) => s.path === "/readyz").length).toBeGreaterThan(3);
      expect(down.every((s) => s.status >= 500)).toBe(true);
      expectAnsweredInTime(samples);

      // recovered without a restart of the API process
      expect(recoveredAt - restartedAt).toBeLessThan(10_000);
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((s) => s.status === 200)).toBe(true);
      expect(api.child.exitCode).toBeNull();
      expect(api.child.pid).toBe(pid);
    } finally {
      await load.stop();
    }
  });

  it("freeze: a database that stops answering fails requests within their timeouts, not forever", async () => {
    onTestFailed(() => {
      console.log(`API output:\n${api.output()}`);
    });
    const pid = api.child.pid;
    const load = startLoad();
    try {
      await sleep(1000);
      // longer than any limit: a request waiting for the database without a timeout would show here
      database.freeze();
      const frozenAt = Date.now();
      await sleep(REQUEST_LIMIT_MS + 2000);
      const thawedAt = Date.now();
      database.thaw();
      await load.recovered(thawedAt);
      const recoveredAt = Date.now();
      await sleep(1000);
      await load.stop();

      const { samples } = load;
      expectAnsweredInTime(samples);
      const frozen = samples.filter((s) => s.startedAt > frozenAt && s.startedAt + s.ms < thawedAt);
      expect(frozen.filter((s) => s.path === "/readyz").length).toBeGreaterThan(3);
      expect(frozen.filter((s) => s.path === "/api/account/profile").length).toBeGreaterThan(0);
      expect(frozen.every((s) => s.status >= 500)).toBe(true);

      expect(recoveredAt - thawedAt).toBeLessThan(10_000);
      expect(samples.filter((s) => s.startedAt > recoveredAt).every((s) => s.status === 200)).toBe(true);
      expect(api.child.exitCode).toBeNull();
      expect(api.child.pid).toBe(pid);
    } finally {
      database.thaw();
      await load.stop();
    }
  });

  it("a query timeout inside a transaction drops the connection instead of handing it to the next user", async () => {
    // one connection, so a reused client would necessarily go to the next user
    const client = createDb(database.url, { max: 1, queryTimeoutMs: 300 });
    const blocker = await database.handle.pool.connect();
    const LOCK = 4711;
    try {
      await blocker.query("SELECT pg_advisory_lock($1)", [LOCK]);
      await expect(
        client.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK})`);
        }),
      ).rejects.toThrow();
      await blocker.query("SELECT pg_advisory_unlock($1)", [LOCK]);
      await sleep(300);

      // a reused connection would now hold the lock in a transaction whose ROLLBACK never went out
      const held = await blocker.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted",
        [LOCK],
      );
      expect(held.rows[0]?.n).toBe(0);
      const fresh = await client.pool.query("SELECT now() = statement_timestamp() AS outside_transaction");
      expect(fresh.rows[0]?.outside_transaction).toBe(true);
    } finally {
      await blocker.query("SELECT pg_advisory_unlock_all()").catch(() => {});
      blocker.release();
      await client.close();
    }
  });
});
