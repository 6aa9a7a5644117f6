/**
 * The congress-opening rush: thousands of participants log in within minutes, load the overview and open
 * the running event's videos, then keep refreshing the overview. Measured against the production build on
 * one port, next to two limits of the same machine: a bare Fastify route answering a body of the overview's
 * size, and the raw argon2id verify rate with our parameters.
 */
import { randomBytes } from "node:crypto";
import { type Db, schema, seedDemo } from "@app/db";
import { hashPassword, verifyPassword } from "@app/db/password";
import { addDays, berlinDate } from "@app/shared";
import { sql } from "drizzle-orm";
import pidusage from "pidusage";
import { secretKey, signAccessToken } from "../../apps/api/src/credentials/access-token";
import { perHeartbeat, runHeartbeats } from "./heartbeat";
import {
  childProcessTimes,
  cpuByThreadName,
  cpuDuring,
  familyCpuMs,
  familyPssMiB,
  namesThreads,
  POOL_THREAD,
  peakRssMiB,
  threadTimes,
} from "./lib/cpu";
import { type BenchDatabase, startBenchDatabase } from "./lib/database";
import { startBareFastify, startFloorLoginServer, startFloorOverviewServer } from "./lib/floors";
import { type Client, drive, type LoadResult, summarise } from "./lib/load";
import { type BenchResult, type Budget, isShort, type Row } from "./lib/report";
import { interleaved, overRuns, type Rounds, spreadText } from "./lib/rounds";
import { startProductionServer } from "./lib/server";

const PASSWORD = "Rush-Passwort-2026!";

interface RushData {
  congressId: number;
  /** the videos of the congress's first day (every day is shown every day) */
  videoUrls: string[];
  emails: (i: number) => string;
  users: number;
}

/** Visitors who all take part in one running free Fortbildung event with three days of videos. */
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
      // its players send heartbeats (the heartbeat phase, ADR 0108)
      fortbildung: true,
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
  return {
    congressId,
    videoUrls: videos(6).map((v) => v.url),
    emails: (i) => `besucher.${(i % users) + 1}@example.com`,
    users,
  };
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
        (
          await signAccessToken(
            {
              id: row.id,
              roles: ["ROLE_USER"],
              sessionVersion: row.sessionVersion,
              sessionId: "test-session",
            },
            key,
            Date.now(),
          )
        ).token,
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

/**
 * The memory budget (ADR 0145, ADR 0148): an instance of docs/capacity.md is two cores with 512 MiB of memory.
 * With tRPC's own adapter (a WHATWG Request and Response per request in flight) the rush peaked at 384-397 MiB
 * on 2026-11-30, 341 before; the heartbeat phase after it (printed, not judged) peaked at 401, and at 428 with
 * the build before, so an instance held that much already. The rest is left for the kernel's buffers.
 */
const PEAK_RSS_MIB = 440;
/**
 * Rounds of each CPU comparison with a reference (ADR 0102; five since ADR 0124): each server's CPU per
 * request moved up to threefold between rounds of one run on a quiet host. Since ADR 0145 the comparisons
 * are information, not gates (the gate is `pnpm bench:capacity`'s figure per visitor): the short run of
 * `pnpm bench:ci` takes three rounds.
 */
const roundsOf = (short: boolean) => (short ? 3 : 5);
/**
 * Turns of the API and the floor within one round of first overviews (ADR 0125): a round of 1,500 takes
 * about half a second per side, and the host's spells of noise (a fixed loop's CPU time moved 1.7x between
 * runs of 150 ms on an idle machine) fell on one side of a pair more often than on both.
 */
const COLD_TURNS = 5;

/** Scrapes the API's /metrics every `everyMs` during the benchmark, as Prometheus would (more often). */
function scrapeMetrics(url: string, token: string, everyMs: number) {
  let scrapes = 0;
  let failures = 0;
  const timer = setInterval(() => {
    fetch(`${url}/metrics`, { headers: bearer(token) }).then(
      async (res) => {
        await res.arrayBuffer();
        scrapes += 1;
        failures += res.ok ? 0 : 1;
      },
      () => {
        failures += 1;
      },
    );
  }, everyMs);
  return { stop: () => clearInterval(timer), counts: () => ({ scrapes, failures }) };
}

export async function runRush(): Promise<BenchResult> {
  const short = isShort();
  const ROUNDS = roundsOf(short);
  // enough visitors that the first-overview rounds (against the floor, then against the heartbeats) never
  // meet one twice; the API sees about as many before the rush as with three rounds of 2,500 (8,000), so the
  // memory budget measures the same caches
  const users = short ? 28_000 : 80_000;
  const seconds = short ? 3 : 10;
  const levels = short ? [8, 32, 128] : [1, 4, 16, 32, 64, 128, 256];
  const coldConnections = 16;
  const coldPerRun = short ? 1_500 : 5_000;
  const coldWarmUp = 1_000;
  // the floor has sat idle since it started (the login phase, about a minute); after 1,000 visitors its
  // turns still cost up to twice its later ones, round after round, while the API (busy all along) stayed
  // level: the best round was the floor's slowest (ADR 0125)
  const floorWarmUp = 4_000;
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
    // the operators' metrics on, scraped every second throughout (Prometheus' default is every 15 s)
    const metricsToken = randomBytes(24).toString("hex");
    const server = await startProductionServer(
      database.url,
      { JWT_SECRET: jwtSecret, METRICS_TOKEN: metricsToken },
      profile,
    );
    stops.unshift(() => server.stop());
    const apiPid = server.process.pid ?? 0;
    const postmaster = database.postmasterPid();
    const usage = sampleUsage(apiPid, database);
    stops.unshift(() => usage.stop());
    const scraper = scrapeMetrics(server.url, metricsToken, 1000);
    stops.unshift(() => scraper.stop());
    const floorLogin = await startFloorLoginServer(database.url);
    stops.unshift(() => floorLogin.stop());
    const floorOverview = await startFloorOverviewServer(database.url, jwtSecret);
    stops.unshift(() => floorOverview.stop());

    // 1. logins: the API and the least a login costs on Node take turns (docs/performance.md, "Comparisons
    // with a floor"); the figure is CPU besides argon2's hash, judged on the best round
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
    const measureMs = (short ? 4 : 10) * 1000;
    await loginRun(warmUpMs)();
    await loginRun(warmUpMs, floorLogin.url)();
    usage.take();
    const apiLogins: Awaited<ReturnType<typeof loginCpu>>[] = [];
    const floorLogins: Awaited<ReturnType<typeof loginCpu>>[] = [];
    const loginRounds = await interleaved(
      ROUNDS,
      "lower",
      async () => {
        const cpu = await loginCpu(apiPid, postmaster, loginRun(measureMs));
        apiLogins.push(cpu);
        return cpu.nonHashMs;
      },
      async () => {
        const cpu = await loginCpu(floorLogin.pid, postmaster, loginRun(measureMs, floorLogin.url));
        floorLogins.push(cpu);
        return cpu.nonHashMs;
      },
    );
    const loginUsage = usage.take();
    const bestLogin = loginRounds.ratios.indexOf(loginRounds.best);
    const cpu = apiLogins[bestLogin] ?? apiLogins[0];
    const floor = floorLogins[bestLogin] ?? floorLogins[0];
    if (!cpu || !floor) {
      throw new Error("no login round");
    }
    const loginErrors = [...apiLogins, ...floorLogins].reduce((n, c) => n + c.result.errors, 0);
    floorLogin.stop();
    const verify = await rawVerify(loginConnections, seconds * 1000);

    // 2. first overviews (each request a visitor never seen, tokens used once): the API and the floor
    // take turns; first both answer one visitor, which must be the same bytes
    const firstVisits = await coldOverviewTokens(database.handle.db, jwtSecret, 1_000, users - 1_000);
    const sameBytesToken = firstVisits.pop() ?? "";
    const answerOf = (url: string) =>
      fetch(`${url}/trpc/congress.getOverview`, { headers: bearer(sameBytesToken) }).then((r) => r.text());
    const [apiBytes, floorBytes] = [await answerOf(server.url), await answerOf(floorOverview.url)];
    const coldResults: Awaited<ReturnType<typeof coldOverviews>>[] = [];
    const coldRun = (url: string, pid: number, count: number) => async () => {
      const run = await cpuDuring(pid, postmaster, () =>
        coldOverviews(url, firstVisits.splice(0, count), coldConnections, 120_000),
      );
      coldResults.push(run.result);
      return run.ms / Math.max(1, run.result.count - run.result.errors);
    };
    await coldRun(server.url, apiPid, coldWarmUp)();
    await coldRun(floorOverview.url, floorOverview.pid, floorWarmUp)();
    usage.take();
    const coldRounds = await interleaved(
      ROUNDS,
      "lower",
      coldRun(server.url, apiPid, coldPerRun / COLD_TURNS),
      coldRun(floorOverview.url, floorOverview.pid, coldPerRun / COLD_TURNS),
      COLD_TURNS,
    );
    const coldUsage = usage.take();
    const apiCold = coldResults.filter((_, i) => i >= 2 && i % 2 === 0);
    const coldBadRuns = coldResults.filter((s) => s.errors > 0 || s.reused > 0);
    floorOverview.stop();

    // 3. the overview with each visitor's answer kept after the first: rising concurrency (latency at the
    // knee), then the API and a bare Fastify route with a body of the same size take turns at the peak
    const tokens = await tokensFor(server.url, data, 256);
    const overviewBody = await fetch(`${server.url}/trpc/congress.getOverview`, {
      headers: bearer(tokens[0] ?? ""),
    }).then((r) => r.json());
    usage.take();
    const warmHeaders = (i: number) => bearer(tokens[i % tokens.length] ?? "");
    const overview = await ladder(
      server.url,
      "/trpc/congress.getOverview",
      levels,
      seconds * 1000,
      warmHeaders,
    );
    const overviewUsage = usage.take();
    const peakStep = overview.reduce((best, s) => (s.rps > best.rps ? s : best));
    const knee = overview.find((s) => s.rps >= 0.8 * peakStep.rps) ?? overview[0];
    const bare = await startBareFastify(overviewBody);
    stops.unshift(() => bare.stop());
    const step = (url: string, path: string, headers: (i: number) => Record<string, string>) => async () =>
      (await ladder(url, path, [peakStep.connections], seconds * 1000, headers))[0]?.rps ?? 0;
    const warmRounds = await interleaved(
      ROUNDS,
      "higher",
      step(server.url, "/trpc/congress.getOverview", warmHeaders),
      step(bare.url, "/overview", () => ({})),
    );
    bare.stop();

    // what a scrape of /metrics costs the API (its database questions included)
    const scrapeCpu = await cpuDuring(apiPid, postmaster, async () => {
      for (let i = 0; i < 50; i++) {
        await fetch(`${server.url}/metrics`, { headers: bearer(metricsToken) }).then((r) => r.text());
      }
    });

    // 4. the rush itself
    usage.take();
    const rush = await drive({
      url: server.url,
      connections: rushConnections,
      durationMs: (short ? 8 : 20) * 1000,
      visitor: rushVisitor(data, 5),
    });
    const rushUsage = usage.take();
    // the rush's high-water mark, before the heartbeat phase (whose own maximum is in the usage table)
    const apiPeakMiB = peakRssMiB(apiPid);

    // 5. heartbeats of the congress's viewers (the first 1,000 visitors, below the first-overview ones)
    // against the API's first overviews, taking turns; then a burst from as many connections as the rush
    const heartbeatCold: Awaited<ReturnType<typeof coldOverviews>>[] = [];
    const heartbeatColdPerRun = Math.min(coldPerRun, Math.floor(firstVisits.length / ROUNDS));
    const heartbeats = await runHeartbeats({
      url: server.url,
      apiPid,
      postmaster,
      db: database.handle.db,
      congressId: data.congressId,
      videoUrls: data.videoUrls,
      viewers: await coldOverviewTokens(database.handle.db, jwtSecret, 0, 1_000),
      firstOverviewRound: async () => {
        const run = await cpuDuring(apiPid, postmaster, () =>
          coldOverviews(server.url, firstVisits.splice(0, heartbeatColdPerRun), coldConnections, 120_000),
        );
        heartbeatCold.push(run.result);
        return run.ms / Math.max(1, run.result.count - run.result.errors);
      },
      rounds: ROUNDS,
      heartbeatsPerRound: short ? 2_000 : 6_000,
      connections: coldConnections,
      burstConnections: rushConnections,
      burstMs: (short ? 8 : 20) * 1000,
    });
    const heartbeatUsage = usage.take();
    const { burst } = heartbeats;
    const heartbeatBestRound = heartbeats.rounds.ratios.indexOf(heartbeats.rounds.best);
    const heartbeatBest = heartbeats.runs[heartbeatBestRound];
    const heartbeatErrors =
      heartbeats.runs.reduce((n, r) => n + r.errors, 0) +
      heartbeatCold.filter((s) => s.errors > 0 || s.reused > 0).length;
    scraper.stop();

    const loginOverRuns = await overRuns("rush", short, "loginRatio", loginRounds.best);
    const coldOverRuns = await overRuns("rush", short, "firstOverviewOverall", coldRounds.overall);
    const warmOverRuns = await overRuns("rush", short, "warmOverviewShare", warmRounds.best);
    const heartbeatOverRuns = await overRuns("rush", short, "heartbeatRatio", heartbeats.rounds.best);
    const x = (n: number) => `${round(n, 2)}x`;
    const ms = (n: number) => round(n, 2);
    const roundErrors = loginErrors + coldBadRuns.length + heartbeatErrors;
    // against the references: information since ADR 0145, judged as when they were budgets (ADR 0102)
    const comparisons: Row[] = [
      {
        comparison: `API CPU per login besides the hash / the floor's (best of ${ROUNDS} rounds)`,
        ratio: x(loginRounds.best),
        detail: `${ms(cpu.nonHashMs)} vs ${ms(floor.nonHashMs)} ms; rounds ${loginRounds.ratios.map(x).join(", ")}`,
      },
      {
        comparison: `API CPU per first overview / the floor's (all ${ROUNDS} rounds together)`,
        ratio: x(coldRounds.overall),
        detail: `rounds ${coldRounds.ratios.map(x).join(", ")}`,
      },
      {
        comparison: `overview throughput / bare Fastify's (best of ${ROUNDS} rounds)`,
        ratio: `${round(100 * warmRounds.best)}%`,
        detail: `at ${peakStep.connections} connections; rounds ${warmRounds.ratios.map((r) => `${round(100 * r)}%`).join(", ")}`,
      },
      {
        comparison: `API CPU per heartbeat / per first overview (best of ${ROUNDS} rounds)`,
        ratio: x(heartbeats.rounds.best),
        detail: `${ms(heartbeats.rounds.ours[heartbeatBestRound] ?? 0)} vs ${ms(heartbeats.rounds.reference[heartbeatBestRound] ?? 0)} ms; rounds ${heartbeats.rounds.ratios.map(x).join(", ")}`,
      },
    ];
    const budgets: Budget[] = [
      {
        name: `zero errors at ${rushConnections} concurrent connections`,
        ok: rush.errors === 0,
        detail: `${rush.errors} errors${rush.firstErrors.length ? `: ${rush.firstErrors.join(" | ")}` : ""}`,
      },
      {
        name: "zero errors in the CPU rounds (logins, first overviews, heartbeats), the floor answering the API's bytes",
        ok: roundErrors === 0 && apiBytes === floorBytes,
        detail: `${loginErrors} login errors, ${coldBadRuns.length} first-overview runs with errors or visitors met twice, ${heartbeatErrors} heartbeat errors or bad runs; floor's answer ${apiBytes === floorBytes ? "the API's bytes" : "DIFFERS from the API's"}`,
      },
      {
        name: `zero heartbeat errors at ${rushConnections} concurrent connections`,
        ok: burst.errors === 0 && burst.heartbeats > 0,
        detail: `${burst.errors} errors in ${burst.heartbeats + burst.errors} heartbeats${burst.result.firstErrors.length ? `: ${burst.result.firstErrors.join(" | ")}` : ""}`,
      },
      {
        name: `API peak RSS ≤ ${PEAK_RSS_MIB} MiB at ${rushConnections} connections`,
        ok: apiPeakMiB <= PEAK_RSS_MIB,
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
    const roundRows = (what: string, rounds: Rounds, unit: (n: number) => string) =>
      rounds.ratios.map((ratio, i) => ({
        budget: what,
        round: i + 1,
        API: unit(rounds.ours[i] ?? 0),
        reference: unit(rounds.reference[i] ?? 0),
        ratio: round(ratio, 3),
      }));
    const scrapes = scraper.counts();
    const heartbeatRow = (run: (typeof heartbeats.runs)[number]) => {
      const s = summarise(run.result, "heartbeat");
      return {
        heartbeats: run.heartbeats,
        "per s": round(s.rps),
        "p50 ms": round(s.p50),
        "p99 ms": round(s.p99),
        errors: run.errors,
        "API CPU ms": ms(perHeartbeat(run, run.apiMs)),
        "PostgreSQL CPU ms": ms(perHeartbeat(run, run.postgresMs)),
        "WAL bytes": Math.round(perHeartbeat(run, run.walBytes)),
      };
    };
    return {
      name: "rush",
      short,
      tables: [
        {
          title: `Rush: ${rushConnections} visitors for ${round(rush.durationSeconds)} s (${users} seeded), ${round(rush.sessions / rush.durationSeconds)} sessions/s`,
          rows: endpointRows(rush),
        },
        {
          title: "Overview (kept answers) by concurrency",
          rows: overview.map((s) => ({
            connections: s.connections,
            "overview req/s": round(s.rps),
            "overview p50 ms": round(s.p50),
            "overview p99 ms": round(s.p99),
            errors: s.errors,
          })),
        },
        {
          title:
            "Rounds: the API and its reference taking turns (judged on the best round; first overviews on all rounds together)",
          rows: [
            ...roundRows("login CPU besides the hash vs floor", loginRounds, (n) => `${ms(n)} ms`),
            ...roundRows("first overview CPU vs floor", coldRounds, (n) => `${ms(n)} ms`),
            ...roundRows("overview req/s vs bare Fastify", warmRounds, (n) => `${round(n)}/s`),
            ...roundRows(
              "heartbeat CPU vs first overview CPU (both API)",
              heartbeats.rounds,
              (n) => `${ms(n)} ms`,
            ),
          ],
        },
        { title: "CPU against the references (information, ADR 0145)", rows: comparisons },
        {
          title: "Ratios over runs (this run and the earlier ones in bench-results/)",
          rows: [
            { ratio: "login: API / floor", values: spreadText(loginOverRuns) },
            { ratio: "first overview: API / floor (all rounds)", values: spreadText(coldOverRuns) },
            { ratio: "overview: API / bare Fastify", values: spreadText(warmOverRuns) },
            { ratio: "heartbeat / first overview (API CPU)", values: spreadText(heartbeatOverRuns) },
          ],
        },
        {
          title: `Heartbeats of a Fortbildung day (1,000 viewers; rounds at ${coldConnections} connections, burst at ${rushConnections}), per heartbeat`,
          rows: [
            ...heartbeats.runs.map((run, i) => ({ run: `round ${i + 1}`, ...heartbeatRow(run) })),
            { run: `burst, ${rushConnections} connections`, ...heartbeatRow(burst) },
          ],
        },
        {
          title: `First overviews (${coldConnections} connections, ${coldPerRun / COLD_TURNS} visitors per turn, ${COLD_TURNS} turns per round)`,
          rows: apiCold.map((s, i) => ({
            turn: i + 1,
            "API req/s": round(s.rps),
            "p50 ms": round(s.p50),
            "p99 ms": round(s.p99),
            errors: s.errors,
          })),
        },
        {
          title: `CPU per login in the best round (${loginConnections} connections, ${cpu.logins} logins), ms`,
          rows: [
            { what: "API besides the hash (the budget)", ms: ms(cpu.nonHashMs) },
            { what: "  main thread", ms: ms(cpu.mainMs) },
            { what: "  V8 helper threads (GC, compiler)", ms: ms(cpu.v8WorkersMs) },
            { what: "  other threads", ms: ms(cpu.otherMs) },
            { what: "API pool threads (argon2id hash)", ms: ms(cpu.hashMs) },
            { what: "one raw argon2id verify", ms: ms(verify.cpuMs) },
            { what: "minimal Node login besides the hash (the floor)", ms: ms(floor.nonHashMs) },
            { what: "PostgreSQL (all processes)", ms: ms(cpu.postgresMs) },
            { what: "load driver (this process)", ms: ms(cpu.driverMs) },
          ],
        },
        {
          title: `Login throughput (information): ${loginConnections} connections vs raw argon2id verify (${loginConnections} in flight)`,
          rows: [
            { what: "login through the API", "per s": round(summarise(cpu.result, "login").rps) },
            { what: "argon2id verify", "per s": round(verify.rate) },
          ],
        },
        {
          title: "Operators' metrics during the benchmark",
          rows: [
            { what: "scrapes of /metrics (every second)", value: scrapes.scrapes },
            { what: "failed scrapes", value: scrapes.failures },
            { what: "API CPU per scrape, ms", value: ms(scrapeCpu.ms / 50) },
            { what: "PostgreSQL CPU per scrape, ms", value: ms(scrapeCpu.postgresMs / 50) },
          ],
        },
        {
          title: "API process and PostgreSQL",
          rows: [
            usageRow("login rounds", loginUsage),
            usageRow("first-overview rounds", coldUsage),
            usageRow("overview ladder", overviewUsage),
            usageRow("rush", rushUsage),
            usageRow("heartbeats", heartbeatUsage),
          ],
        },
      ],
      budgets,
      figures: {
        overviewBytes: JSON.stringify(overviewBody).length,
        sessionsPerSecond: rush.sessions / rush.durationSeconds,
        loginRatio: loginRounds.best,
        loginRounds: loginRounds.ratios,
        firstOverviewOverall: coldRounds.overall,
        firstOverviewRatio: coldRounds.best,
        firstOverviewRounds: coldRounds.ratios,
        warmOverviewShare: warmRounds.best,
        warmOverviewRounds: warmRounds.ratios,
        loginNonHashCpuMs: cpu.nonHashMs,
        floorLoginNonHashCpuMs: floor.nonHashMs,
        firstOverviewCpuMs: coldRounds.ours,
        floorFirstOverviewCpuMs: coldRounds.reference,
        argon2VerifyCpuMs: verify.cpuMs,
        postgresCpuPerLoginMs: cpu.postgresMs,
        coldOverviewRps: Math.max(...apiCold.map((s) => s.rps)),
        apiPeakRssMiB: apiPeakMiB,
        metricsScrapeCpuMs: scrapeCpu.ms / 50,
        heartbeatRatio: heartbeats.rounds.best,
        heartbeatRounds: heartbeats.rounds.ratios,
        heartbeatCpuMs: heartbeats.rounds.ours,
        firstOverviewCpuMsAgainstHeartbeats: heartbeats.rounds.reference,
        postgresCpuPerHeartbeatMs: heartbeatBest
          ? perHeartbeat(heartbeatBest, heartbeatBest.postgresMs)
          : null,
        walBytesPerHeartbeat: heartbeatBest ? perHeartbeat(heartbeatBest, heartbeatBest.walBytes) : null,
        walBytesPerHeartbeatBurst: perHeartbeat(burst, burst.walBytes),
        heartbeatBurstRps: summarise(burst.result, "heartbeat").rps,
      },
    };
  } finally {
    for (const stop of stops) {
      await stop();
    }
  }
}
