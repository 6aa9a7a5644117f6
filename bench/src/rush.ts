/**
 * The congress-opening rush: thousands of participants log in within minutes, load the overview and open
 * the running event's videos, then keep refreshing the overview. Measured against the production build on
 * one port, next to two limits of the same machine: a bare Fastify route answering a body of the overview's
 * size, and the raw argon2id verify rate with our parameters.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type Db, freePort, schema, seedDemo } from "@app/db";
import { hashPassword, verifyPassword } from "@app/db/password";
import { addDays, berlinDate } from "@app/shared";
import { sql } from "drizzle-orm";
import pidusage from "pidusage";
import { secretKey, signAccessToken } from "../../apps/api/src/credentials/access-token";
import { V8_FLAGS } from "../../apps/api/src/v8-flags";
import {
  childProcessTimes,
  cpuByThreadName,
  familyCpuMs,
  familyPssMiB,
  namesThreads,
  POOL_THREAD,
  peakRssMiB,
  threadTimes,
} from "./lib/cpu";
import { type BenchDatabase, startBenchDatabase } from "./lib/database";
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
export async function seedRush(db: Db, users: number): Promise<RushData> {
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
  // 9:00 on the congress day: the event-day mails went out at midnight (as queueCongressDayMails keys
  // them), so the server's start-up catch-up finds nothing to render and send during the measurement
  await db.execute(sql`
    INSERT INTO mail_outbox (idempotency_key, template_name, congress_id, user_id, to_email, variables, status, sent_at)
    SELECT 'event-day:' || ${congressId} || ':' || u.id || ':' || ${berlinDate()}, 'event-day', ${congressId},
           u.id, u.email, '{}'::jsonb, 'sent', now()
      FROM users u WHERE u.email LIKE 'besucher.%'`);
  await db.execute(sql`ANALYZE`);
  return { congressId, emails: (i) => `besucher.${(i % users) + 1}@example.com`, users };
}

/**
 * Raw argon2id verifies in this process, with as many in flight as the login test: their rate, and the CPU
 * one verify takes on libuv's pool threads (where @node-rs/argon2 hashes).
 */
async function rawVerify(concurrency: number, durationMs: number): Promise<{ rate: number; cpuMs: number }> {
  const hash = await hashPassword(PASSWORD);
  const before = threadTimes(process.pid);
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
  const seconds = (performance.now() - started) / 1000;
  const after = threadTimes(process.pid);
  if (!namesThreads(after)) {
    throw new Error(
      `Node ${process.version} does not name its threads, so argon2's share of the CPU cannot be told apart: run the benchmark on Node 22+ (pnpm bench does, through scripts/with-node24.sh)`,
    );
  }
  return { rate: done / seconds, cpuMs: (cpuByThreadName(before, after).get(POOL_THREAD) ?? 0) / done };
}

/**
 * CPU per sign-in, from the API's threads and PostgreSQL's processes during a login run: the API's pool
 * threads (argon2's hash) apart from everything else it does for a login (main thread: HTTP, statements,
 * token, cookies; V8's helper threads: garbage collection and compilation).
 */
async function loginCpu(apiPid: number, postmaster: number, run: () => Promise<LoadResult>) {
  const api = threadTimes(apiPid);
  const pg = childProcessTimes(postmaster);
  const driver = process.cpuUsage();
  const result = await run();
  const driverMs = (() => {
    const used = process.cpuUsage(driver);
    return (used.user + used.system) / 1000;
  })();
  const byName = cpuByThreadName(api, threadTimes(apiPid));
  const pgMs = familyCpuMs(pg, childProcessTimes(postmaster));
  const logins = summarise(result, "login").count - result.errors;
  const per = (ms: number) => ms / Math.max(1, logins);
  const total = [...byName.values()].reduce((sum, ms) => sum + ms, 0);
  const hash = byName.get(POOL_THREAD) ?? 0;
  return {
    result,
    logins,
    hashMs: per(hash),
    nonHashMs: per(total - hash),
    mainMs: per(byName.get("MainThread") ?? 0),
    v8WorkersMs: per(byName.get("V8Worker") ?? 0),
    otherMs: per(total - hash - (byName.get("MainThread") ?? 0) - (byName.get("V8Worker") ?? 0)),
    postgresMs: per(pgMs),
    driverMs: per(driverMs),
  };
}

/**
 * Access tokens for visitors the API has never seen, signed with its secret as a login would sign them:
 * every request with one of them is that visitor's first overview (no kept answer, no verified token, no
 * kept session state), as in the opening minute of a congress.
 */
export async function coldOverviewTokens(
  db: Db,
  jwtSecret: string,
  skip: number,
  count: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: schema.users.id, sessionVersion: schema.users.sessionVersion })
    .from(schema.users)
    .where(sql`${schema.users.email} LIKE 'besucher.%'`)
    .orderBy(schema.users.id)
    .offset(skip)
    .limit(count);
  const key = secretKey(jwtSecret);
  return Promise.all(
    rows.map(
      async (row) =>
        (await signAccessToken({ id: row.id, roles: ["ROLE_USER"], sessionVersion: row.sessionVersion }, key))
          .token,
    ),
  );
}

const json = { "content-type": "application/json" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const trpcInput = (input: unknown) => encodeURIComponent(JSON.stringify({ json: input }));

export async function login(client: Client, email: string): Promise<string | undefined> {
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

/**
 * CPU (% of one core) and resident memory of the API process, and PostgreSQL's memory (all its processes,
 * shared memory counted once), sampled every half second.
 */
function sampleUsage(pid: number, database: BenchDatabase) {
  const samples: { cpu: number; memory: number; postgres: number }[] = [];
  const postmaster = database.postmasterPid();
  const timer = setInterval(() => {
    pidusage(pid).then(
      (s) =>
        samples.push({
          cpu: s.cpu,
          memory: s.memory,
          postgres: familyPssMiB(childProcessTimes(postmaster).keys()),
        }),
      () => {},
    );
  }, 500);
  return {
    /** the samples since the last call */
    take() {
      const taken = samples.splice(0);
      const cpu = taken.length ? taken.reduce((sum, s) => sum + s.cpu, 0) / taken.length : 0;
      const memory = taken.length ? Math.max(...taken.map((s) => s.memory)) : 0;
      const postgres = taken.length ? Math.max(...taken.map((s) => s.postgres)) : 0;
      return { cpuPercent: cpu, memoryMiB: memory / 2 ** 20, postgresMiB: postgres };
    },
    stop: () => clearInterval(timer),
  };
}

/** The bare Fastify process answering `body` at /overview. */
/**
 * The least a login costs on Node (lib/floor-login-server.mjs: node:http, two statements, the same argon2id
 * verify, token, cookies; no framework, limits or checks), with the API's V8 flags: the reference for what
 * the API's own login costs on this machine (docs/performance.md, "Login budget").
 */
async function startFloorLoginServer(databaseUrl: string) {
  const port = await freePort();
  const child = fork(
    resolve(import.meta.dirname, "lib/floor-login-server.mjs"),
    [databaseUrl, String(port)],
    {
      stdio: "inherit",
      execArgv: [...V8_FLAGS],
    },
  );
  await new Promise<void>((ready, fail) => {
    child.once("message", () => ready());
    child.once("exit", (code) => fail(new Error(`the floor login server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () => {
      child.kill("SIGTERM");
    },
  };
}

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
    await client.request("profile", { path: "/trpc/account.getProfile", headers });
    await client.request("overview", { path: "/trpc/congress.getOverview", headers });
    await client.request("event", {
      path: `/trpc/congress.get?input=${trpcInput({ congressId: data.congressId })}`,
      headers,
    });
    for (let i = 0; i < refreshes; i++) {
      await client.request("overview", { path: "/trpc/congress.getOverview", headers });
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

/**
 * Throughput of first overviews: every request a visitor the API has not seen (tokens used once each). A
 * run ends early when its visitors are used up: a fast API would otherwise meet them again (warm) and
 * the short run's 8,000 per level allow no more than about 2,700 per second for its 3 seconds.
 */
async function coldOverviews(url: string, tokens: string[], connections: number, durationMs: number) {
  let next = 0;
  let reused = 0;
  const result = await drive({
    url,
    connections,
    durationMs,
    done: () => next >= tokens.length,
    visitor: async (client) => {
      if (next >= tokens.length) {
        reused += 1;
      }
      const token = tokens[next++ % tokens.length] ?? "";
      await client.request("cold", { path: "/trpc/congress.getOverview", headers: bearer(token) });
    },
  });
  return { ...summarise(result, "cold"), reused, connections };
}

export async function runRush(): Promise<BenchResult> {
  const short = isShort();
  // enough visitors that the cold overview phase never meets one twice
  const users = short ? 20_000 : 60_000;
  const seconds = short ? 3 : 10;
  const levels = short ? [8, 32, 128] : [1, 4, 16, 32, 64, 128, 256];
  const coldLevels = short ? [8, 32] : [8, 32, 128];
  const rushConnections = 500;
  const database = await startBenchDatabase("rush");
  const stops: Array<() => Promise<void> | void> = [() => database.stop()];
  try {
    const seedStarted = performance.now();
    const data = await seedRush(database.handle.db, users);
    console.log(`seeded ${users} visitors in ${round((performance.now() - seedStarted) / 1000)} s`);
    // BENCH_PROF=<dir> writes a CPU profile of the API process there (docs/performance.md)
    const profile = process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
    const jwtSecret = randomBytes(24).toString("hex");
    const server = await startProductionServer(database.url, { JWT_SECRET: jwtSecret }, profile);
    stops.unshift(() => server.stop());
    const apiPid = server.process.pid ?? 0;
    const usage = sampleUsage(apiPid, database);
    stops.unshift(() => usage.stop());

    // 1. logins through the whole stack after a warm-up (JIT, database connections), between two runs of
    // the raw argon2id verify in this process. The budget is CPU: what the API spends per login besides
    // argon2's hash, against the CPU of one raw verify (docs/performance.md, "Login budget").
    const loginConnections = 8;
    let loginIndex = 0;
    const loginRun =
      (durationMs: number, url = server.url) =>
      () =>
        drive({
          url,
          connections: loginConnections,
          durationMs,
          visitor: async (client) => {
            await login(client, data.emails(loginIndex++));
          },
        });
    // the login path runs far less often than the overview: V8 optimises it only after several hundred
    // logins, and until then its compiler threads and the unoptimised code cost more than the steady state
    const warmUpMs = (short ? 10 : 15) * 1000;
    const measureMs = (short ? 5 : 10) * 1000;
    await loginRun(warmUpMs)();
    const verifyBefore = await rawVerify(loginConnections, seconds * 1000);
    usage.take();
    const cpu = await loginCpu(apiPid, database.postmasterPid(), loginRun(measureMs));
    const logins = cpu.result;
    const loginUsage = usage.take();
    const verifyAfter = await rawVerify(loginConnections, seconds * 1000);
    const verifyRate = (verifyBefore.rate + verifyAfter.rate) / 2;
    const verifyCpuMs = (verifyBefore.cpuMs + verifyAfter.cpuMs) / 2;
    const loginRate = summarise(logins, "login").rps;
    // the same logins (other visitors) through the least a login can cost on Node, measured the same way
    const floorServer = await startFloorLoginServer(database.url);
    stops.unshift(() => floorServer.stop());
    await loginRun(warmUpMs, floorServer.url)();
    const floor = await loginCpu(
      floorServer.pid,
      database.postmasterPid(),
      loginRun(measureMs, floorServer.url),
    );
    floorServer.stop();

    // 2. the overview at rising concurrency (each visitor's answer kept after its first), the first
    // overviews of visitors never seen before, then the same ladder on a bare Fastify route
    const tokens = await tokensFor(server.url, data, 256);
    const overviewBody = await fetch(`${server.url}/trpc/congress.getOverview`, {
      headers: bearer(tokens[0] ?? ""),
    }).then((r) => r.json());
    usage.take();
    const overview = await ladder(server.url, "/trpc/congress.getOverview", levels, seconds * 1000, (i) =>
      bearer(tokens[i % tokens.length] ?? ""),
    );
    const overviewUsage = usage.take();
    // the visitors after the 256 above and the rush's (who log in from the first on)
    const firstVisits = await coldOverviewTokens(database.handle.db, jwtSecret, 4_000, users - 4_000);
    const cold: Awaited<ReturnType<typeof coldOverviews>>[] = [];
    for (const connections of coldLevels) {
      const slice = firstVisits.splice(0, Math.floor(firstVisits.length / (coldLevels.length - cold.length)));
      cold.push(await coldOverviews(server.url, slice, connections, seconds * 1000));
    }
    const coldUsage = usage.take();
    const bare = await startBareFastify(overviewBody);
    stops.unshift(() => bare.stop());
    const bareSteps = await ladder(bare.url, "/overview", levels, seconds * 1000, () => ({}));
    bare.stop();

    // 3. the rush itself
    usage.take();
    const rush = await drive({
      url: server.url,
      connections: rushConnections,
      durationMs: (short ? 8 : 20) * 1000,
      visitor: rushVisitor(data, 5),
    });
    const rushUsage = usage.take();
    const apiPeakMiB = peakRssMiB(apiPid);

    const peak = Math.max(...overview.map((s) => s.rps));
    const barePeak = Math.max(...bareSteps.map((s) => s.rps));
    const coldPeak = cold.reduce((best, s) => (s.rps > best.rps ? s : best));
    const knee = overview.find((s) => s.rps >= 0.8 * peak) ?? overview[0];
    const budgets: Budget[] = [
      {
        name: "overview throughput ≥ 30% of bare Fastify",
        ok: peak >= 0.3 * barePeak,
        detail: `${round(peak)} vs ${round(barePeak)} req/s = ${round((100 * peak) / barePeak)}%`,
      },
      {
        name: "first overviews (cold) ≥ 15% of bare Fastify",
        ok: coldPeak.rps >= 0.15 * barePeak && cold.every((s) => s.errors === 0 && s.reused === 0),
        detail: `${round(coldPeak.rps)} vs ${round(barePeak)} req/s = ${round((100 * coldPeak.rps) / barePeak)}% at ${coldPeak.connections} connections (${cold.reduce((n, s) => n + s.errors, 0)} errors, ${cold.reduce((n, s) => n + s.reused, 0)} visitors met twice)`,
      },
      {
        name: "API CPU per login besides the hash ≤ 10% of one argon2id verify",
        ok: cpu.nonHashMs <= 0.1 * verifyCpuMs && logins.errors === 0,
        detail: `${round(cpu.nonHashMs, 2)} vs ${round(verifyCpuMs, 2)} ms = ${round((100 * cpu.nonHashMs) / verifyCpuMs)}% (${cpu.logins} logins, ${logins.errors} errors)`,
      },
      {
        name: `zero errors at ${rushConnections} concurrent connections`,
        ok: rush.errors === 0,
        detail: `${rush.errors} errors${rush.firstErrors.length ? `: ${rush.firstErrors.join(" | ")}` : ""}`,
      },
      {
        name: `API peak RSS ≤ 400 MiB at ${rushConnections} connections`,
        ok: apiPeakMiB <= 400,
        detail: `${round(apiPeakMiB)} MiB (VmHWM after the rush)`,
      },
      {
        name: "overview p99 < 100 ms at the concurrency reaching 80% of peak",
        ok: (knee?.p99 ?? Number.POSITIVE_INFINITY) < 100 && (knee?.errors ?? 1) === 0,
        detail: `${round(knee?.p99 ?? 0)} ms at ${knee?.connections} connections (${round(knee?.rps ?? 0)} req/s)`,
      },
    ];
    const usageRow = (phase: string, u: ReturnType<typeof usage.take>) => ({
      phase,
      "API CPU % (1 core = 100)": round(u.cpuPercent),
      "API max RSS MiB": round(u.memoryMiB),
      "PostgreSQL MiB (Pss)": round(u.postgresMiB),
    });
    const ms = (n: number) => round(n, 2);
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
          title: "First overviews (each request a visitor never seen before)",
          rows: cold.map((s) => ({
            connections: s.connections,
            "req/s": round(s.rps),
            "p50 ms": round(s.p50),
            "p99 ms": round(s.p99),
            "% of bare peak": round((100 * s.rps) / barePeak),
            errors: s.errors,
          })),
        },
        {
          title: `CPU per login (${loginConnections} connections, ${cpu.logins} logins), ms`,
          rows: [
            { what: "API besides the hash (the budget)", ms: ms(cpu.nonHashMs) },
            { what: "  main thread", ms: ms(cpu.mainMs) },
            { what: "  V8 helper threads (GC, compiler)", ms: ms(cpu.v8WorkersMs) },
            { what: "  other threads", ms: ms(cpu.otherMs) },
            { what: "API pool threads (argon2id hash)", ms: ms(cpu.hashMs) },
            { what: "one raw argon2id verify (mean of before and after)", ms: ms(verifyCpuMs) },
            { what: "minimal Node login besides the hash (reference)", ms: ms(floor.nonHashMs) },
            { what: "  API / minimal Node login", ms: round(cpu.nonHashMs / floor.nonHashMs, 2) },
            { what: "PostgreSQL (all processes)", ms: ms(cpu.postgresMs) },
            { what: "load driver (this process)", ms: ms(cpu.driverMs) },
          ],
        },
        {
          title: `Login throughput (information): ${loginConnections} connections vs raw argon2id verify (${loginConnections} in flight)`,
          rows: [
            { what: "login through the API", "per s": round(loginRate), errors: logins.errors },
            { what: "argon2id verify, mean of before and after", "per s": round(verifyRate), errors: 0 },
            { what: "  ratio %", "per s": round((100 * loginRate) / verifyRate), errors: 0 },
          ],
        },
        {
          title: "API process and PostgreSQL",
          rows: [
            usageRow("login", loginUsage),
            usageRow("overview ladder", overviewUsage),
            usageRow("first overviews", coldUsage),
            usageRow("rush", rushUsage),
          ],
        },
      ],
      budgets,
      figures: {
        overviewBytes: JSON.stringify(overviewBody).length,
        sessionsPerSecond: rush.sessions / rush.durationSeconds,
        loginNonHashCpuMs: cpu.nonHashMs,
        floorLoginNonHashCpuMs: floor.nonHashMs,
        argon2VerifyCpuMs: verifyCpuMs,
        postgresCpuPerLoginMs: cpu.postgresMs,
        coldOverviewRps: coldPeak.rps,
        apiPeakRssMiB: apiPeakMiB,
      },
    };
  } finally {
    for (const stop of stops) {
      await stop();
    }
  }
}
