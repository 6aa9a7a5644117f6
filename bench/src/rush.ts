/**
 * The congress-opening rush: thousands of participants log in within minutes, load the overview and open
 * the running event's videos, then keep refreshing the overview. Measured against the production build on
 * one port, next to two limits of the same machine: a bare Fastify route answering a body of the overview's
 * size, and the raw argon2id verify rate with our parameters.
 */
import { fork } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type Db, freePort, schema, seedDemo } from "@app/db";
import { hashPassword, verifyPassword } from "@app/db/password";
import { addDays, berlinDate } from "@app/shared";
import { sql } from "drizzle-orm";
import pidusage from "pidusage";
import { startBenchDatabase } from "./lib/database";
import { type Client, drive, type LoadResult, summarise } from "./lib/load";
import { type BenchResult, type Budget, isShort, type Row, repoRoot } from "./lib/report";
import { startProductionServer } from "./lib/server";

const PASSWORD = "Rush-Passwort-2026!";

interface RushData {
  congressId: number;
  emails: (i: number) => string;
  users: number;
}

/** Visitors who all take part in one running free event with three days of videos. */
async function seedRush(db: Db, users: number): Promise<RushData> {
  await seedDemo(db);
  const today = berlinDate();
  const [congress] = await db
    .insert(schema.congresses)
    .values({
      title: "Rush-Kongress: Bindung im Alltag",
      description: "Lastprobe für die Kongresseröffnung.",
      visible: true,
      firstDay: today,
      lastDay: addDays(today, 2),
    })
    .returning({ id: schema.congresses.id });
  const congressId = congress?.id ?? 0;
  const videos = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      url: `https://vimeo.com/${900_000 + i}`,
      comment: `Vortrag ${i + 1}`,
    }));
  await db.insert(schema.congressContents).values({
    congressId,
    data: {
      days: [
        { name: "Tag 1", exclusive_date: "", videos: videos(6) },
        { name: "Tag 2", exclusive_date: "", videos: videos(6) },
        { name: "Tag 3", exclusive_date: "", videos: videos(5) },
      ],
    },
  });
  // one argon2id hash for everybody: hashing 20,000 passwords would only slow the seed down
  const hash = await hashPassword(PASSWORD);
  await db.execute(sql`
    INSERT INTO users (email, firstname, lastname, password_hash, active, email_confirmed_at)
    SELECT 'besucher.' || g || '@example.com', 'Besucherin', 'Nr. ' || g, ${hash}, true, now()
    FROM generate_series(1, ${users}) AS g`);
  await db.execute(sql`
    INSERT INTO participations (user_id, congress_id)
    SELECT id, ${congressId} FROM users WHERE email LIKE 'besucher.%'`);
  // 9:00 on the congress day: the event-day mails went out at midnight (as queueEventDayMails keys
  // them), so the server's start-up catch-up finds nothing to render and send during the measurement
  await db.execute(sql`
    INSERT INTO mail_outbox (idempotency_key, template_name, congress_id, user_id, to_email, variables, status, sent_at)
    SELECT 'event-day:' || ${congressId} || ':' || u.id || ':' || ${berlinDate()}, 'event-day', ${congressId},
           u.id, u.email, '{}'::jsonb, 'sent', now()
      FROM users u WHERE u.email LIKE 'besucher.%'`);
  await db.execute(sql`ANALYZE`);
  return { congressId, emails: (i) => `besucher.${(i % users) + 1}@example.com`, users };
}

/** Raw argon2id verifies per second in this process, with as many in flight as the login test. */
async function argon2VerifyRate(concurrency: number, durationMs: number): Promise<number> {
  const hash = await hashPassword(PASSWORD);
  let done = 0;
  const until = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        if (!(await verifyPassword(hash, PASSWORD))) {
          throw new Error("argon2 verify failed");
        }
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const json = { "content-type": "application/json" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const trpcInput = (input: unknown) => encodeURIComponent(JSON.stringify({ json: input }));

async function login(client: Client, email: string): Promise<string | undefined> {
  const res = await client.request("login", {
    method: "POST",
    path: "/api/auth/login",
    headers: json,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return (res.json as { token?: string } | null)?.token;
}

/** Access tokens for the first `count` visitors, fetched before a measurement. */
async function tokensFor(url: string, data: RushData, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 8) {
    const batch = Array.from({ length: Math.min(8, count - i) }, async (_, k) => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: data.emails(i + k), password: PASSWORD }),
      });
      const body = (await res.json()) as { token?: string };
      if (!body.token) {
        throw new Error(`login of ${data.emails(i + k)} failed: ${res.status}`);
      }
      tokens[i + k] = body.token;
    });
    await Promise.all(batch);
  }
  return tokens;
}

/** CPU (% of one core) and resident memory of the API process, sampled every half second. */
function sampleUsage(pid: number) {
  const samples: { cpu: number; memory: number }[] = [];
  const timer = setInterval(() => {
    pidusage(pid).then(
      (s) => samples.push({ cpu: s.cpu, memory: s.memory }),
      () => {},
    );
  }, 500);
  return {
    /** the samples since the last call */
    take() {
      const taken = samples.splice(0);
      const cpu = taken.length ? taken.reduce((sum, s) => sum + s.cpu, 0) / taken.length : 0;
      const memory = taken.length ? Math.max(...taken.map((s) => s.memory)) : 0;
      return { cpuPercent: cpu, memoryMiB: memory / 2 ** 20 };
    },
    stop: () => clearInterval(timer),
  };
}

/** The bare Fastify process answering `body` at /overview. */
async function startBareFastify(body: unknown) {
  const dir = await mkdtemp(resolve(repoRoot, ".data/bench-bare-"));
  const file = resolve(dir, "overview.json");
  await writeFile(file, JSON.stringify(body));
  const port = await freePort();
  const child = fork(resolve(import.meta.dirname, "lib/bare-server.mjs"), [file, String(port)], {
    stdio: "inherit",
  });
  await new Promise<void>((ready, fail) => {
    child.once("message", () => ready());
    child.once("exit", (code) => fail(new Error(`bare Fastify exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () => {
      child.kill("SIGTERM");
    },
  };
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

interface LadderStep {
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Throughput and latency of one GET at rising concurrency. */
async function ladder(
  url: string,
  path: string,
  levels: number[],
  durationMs: number,
  headers: (i: number) => Record<string, string>,
): Promise<LadderStep[]> {
  const steps: LadderStep[] = [];
  for (const connections of levels) {
    const result = await drive({
      url,
      connections,
      durationMs,
      visitor: async (client, index) => {
        await client.request("get", { path, headers: headers(index) });
      },
    });
    const s = summarise(result, "get");
    steps.push({ connections, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors });
  }
  return steps;
}

/** The visitor of the rush: log in, profile, overview, the event's videos, then refresh the overview. */
function rushVisitor(data: RushData, refreshes: number) {
  let next = 0;
  return async (client: Client, _index: number, session: () => void) => {
    const token = await login(client, data.emails(next++));
    if (!token) {
      return;
    }
    session();
    const headers = bearer(token);
    await client.request("profile", { path: "/trpc/account.profile", headers });
    await client.request("overview", { path: "/trpc/congress.overview", headers });
    await client.request("event", {
      path: `/trpc/congress.get?input=${trpcInput({ congressId: data.congressId })}`,
      headers,
    });
    for (let i = 0; i < refreshes; i++) {
      await client.request("overview", { path: "/trpc/congress.overview", headers });
    }
  };
}

function endpointRows(result: LoadResult): Row[] {
  return [...result.endpoints.keys()].map((name) => {
    const s = summarise(result, name);
    return {
      endpoint: name,
      requests: s.count,
      "req/s": round(s.rps),
      "p50 ms": round(s.p50),
      "p95 ms": round(s.p95),
      "p99 ms": round(s.p99),
      errors: s.errors,
    };
  });
}

export async function runRush(): Promise<BenchResult> {
  const short = isShort();
  const users = short ? 2_000 : 20_000;
  const seconds = short ? 3 : 10;
  const levels = short ? [8, 32, 128] : [1, 4, 16, 32, 64, 128, 256];
  const rushConnections = short ? 200 : 500;
  const database = await startBenchDatabase("rush");
  const stops: Array<() => Promise<void> | void> = [() => database.stop()];
  try {
    const seedStarted = performance.now();
    const data = await seedRush(database.handle.db, users);
    console.log(`seeded ${users} visitors in ${round((performance.now() - seedStarted) / 1000)} s`);
    // BENCH_PROF=<dir> writes a CPU profile of the API process there (docs/performance.md)
    const profile = process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
    const server = await startProductionServer(database.url, {}, profile);
    stops.unshift(() => server.stop());
    const usage = sampleUsage(server.process.pid ?? 0);
    stops.unshift(() => usage.stop());

    // 1. login throughput through the whole stack, between two measurements of the raw argon2id verify
    // rate of this machine (their mean: a noisy machine drifts within a run). The API is warmed up with
    // logins first, so the figure is its steady state rather than its JIT compiling and its database
    // connections opening.
    const loginConnections = 8;
    let loginIndex = 0;
    const loginRun = (durationMs: number) =>
      drive({
        url: server.url,
        connections: loginConnections,
        durationMs,
        visitor: async (client) => {
          await login(client, data.emails(loginIndex++));
        },
      });
    await loginRun((short ? 2 : 5) * 1000);
    const verifyBefore = await argon2VerifyRate(loginConnections, seconds * 1000);
    usage.take();
    const logins = await loginRun(seconds * 1000);
    const loginUsage = usage.take();
    const verifyAfter = await argon2VerifyRate(loginConnections, seconds * 1000);
    const verifyRate = (verifyBefore + verifyAfter) / 2;
    const loginRate = summarise(logins, "login").rps;

    // 2. the overview at rising concurrency, then the same ladder on a bare Fastify route
    const tokens = await tokensFor(server.url, data, 256);
    const overviewBody = await fetch(`${server.url}/trpc/congress.overview`, {
      headers: bearer(tokens[0] ?? ""),
    }).then((r) => r.json());
    usage.take();
    const overview = await ladder(server.url, "/trpc/congress.overview", levels, seconds * 1000, (i) =>
      bearer(tokens[i % tokens.length] ?? ""),
    );
    const overviewUsage = usage.take();
    const bare = await startBareFastify(overviewBody);
    stops.unshift(() => bare.stop());
    const bareSteps = await ladder(bare.url, "/overview", levels, seconds * 1000, () => ({}));
    bare.stop();

    // 3. the rush itself
    usage.take();
    const rush = await drive({
      url: server.url,
      connections: rushConnections,
      durationMs: (short ? 5 : 20) * 1000,
      visitor: rushVisitor(data, 5),
    });
    const rushUsage = usage.take();

    const peak = Math.max(...overview.map((s) => s.rps));
    const barePeak = Math.max(...bareSteps.map((s) => s.rps));
    const knee = overview.find((s) => s.rps >= 0.8 * peak) ?? overview[0];
    const budgets: Budget[] = [
      {
        name: "overview throughput ≥ 30% of bare Fastify",
        ok: peak >= 0.3 * barePeak,
        detail: `${round(peak)} vs ${round(barePeak)} req/s = ${round((100 * peak) / barePeak)}%`,
      },
      {
        name: "login throughput ≥ 85% of the raw argon2id verify rate",
        ok: loginRate >= 0.85 * verifyRate && logins.errors === 0,
        detail: `${round(loginRate)} vs ${round(verifyRate)} per s = ${round((100 * loginRate) / verifyRate)}% (${logins.errors} errors)`,
      },
      {
        name: `zero errors at ${rushConnections} concurrent connections`,
        ok: rush.errors === 0,
        detail: `${rush.errors} errors${rush.firstErrors.length ? `: ${rush.firstErrors.join(" | ")}` : ""}`,
      },
      {
        name: "overview p99 < 100 ms at the concurrency reaching 80% of peak",
        ok: (knee?.p99 ?? Number.POSITIVE_INFINITY) < 100 && (knee?.errors ?? 1) === 0,
        detail: `${round(knee?.p99 ?? 0)} ms at ${knee?.connections} connections (${round(knee?.rps ?? 0)} req/s)`,
      },
    ];
    const usageRow = (phase: string, u: { cpuPercent: number; memoryMiB: number }) => ({
      phase,
      "API CPU % (1 core = 100)": round(u.cpuPercent),
      "API max RSS MiB": round(u.memoryMiB),
    });
    return {
      name: "rush",
      short,
      tables: [
        {
          title: `Rush: ${rushConnections} visitors for ${round(rush.durationSeconds)} s (${users} seeded), ${round(rush.sessions / rush.durationSeconds)} sessions/s`,
          rows: endpointRows(rush),
        },
        {
          title: "Overview vs bare Fastify (same body size) by concurrency",
          rows: overview.map((s, i) => ({
            connections: s.connections,
            "overview req/s": round(s.rps),
            "overview p50 ms": round(s.p50),
            "overview p99 ms": round(s.p99),
            "bare req/s": round(bareSteps[i]?.rps ?? 0),
            "bare p99 ms": round(bareSteps[i]?.p99 ?? 0),
            errors: s.errors,
          })),
        },
        {
          title: `Login (${loginConnections} connections) vs raw argon2id verify (${loginConnections} in flight)`,
          rows: [
            { what: "login through the API", "per s": round(loginRate), errors: logins.errors },
            {
              what: "argon2id verify (m=19 MiB, t=2, p=1), mean of before and after",
              "per s": round(verifyRate),
              errors: 0,
            },
            { what: "  before the login run", "per s": round(verifyBefore), errors: 0 },
            { what: "  after the login run", "per s": round(verifyAfter), errors: 0 },
          ],
        },
        {
          title: "API process",
          rows: [
            usageRow("login", loginUsage),
            usageRow("overview ladder", overviewUsage),
            usageRow("rush", rushUsage),
          ],
        },
      ],
      budgets,
      figures: {
        overviewBytes: JSON.stringify(overviewBody).length,
        sessionsPerSecond: rush.sessions / rush.durationSeconds,
      },
    };
  } finally {
    for (const stop of stops) {
      await stop();
    }
  }
}
