/**
 * `pnpm bench:profile <login|cold> [connections]`: a CPU profile of the production API during one kind of request, and
 * where its time goes, per request: by package (npm packages by name, our bundle by function) and the
 * hottest functions. Not a budget; the tool behind the figures in docs/performance/history.md ("Login budget",
 * "First overviews").
 */

import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { startBenchDatabase } from "./lib/database";
import { drive } from "./lib/load";
import { repoRoot } from "./lib/report";
import { startProductionServer } from "./lib/server";
import { coldOverviewTokens, login, seedRush } from "./rush";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  /** microseconds of the monotonic clock, as `process.hrtime` reads it */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `@scope/name` or `name` of a node_modules path, `ours` for the bundle, else the kind of frame. */
function origin(url: string, functionName: string): string {
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) {
    return pkg;
  }
  if (url.includes("apps/api/dist/server.mjs")) {
    return "ours (bundle)";
  }
  if (url.startsWith("node:")) {
    return "node core";
  }
  return functionName.startsWith("(") ? functionName : "native / V8";
}

/** Self time per node of the samples taken between `from` and `to` (monotonic microseconds). */
function summarise(profile: CpuProfile, requests: number, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from && at <= to) {
      self.set(id, (self.get(id) ?? 0) + delta);
    }
  });
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") {
      continue;
    }
    const from = origin(frame.url, frame.functionName);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + us);
    const name = `${frame.functionName || "(anonymous)"} ${from === "ours (bundle)" ? `server.mjs:${frame.lineNumber + 1}` : from}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const perRequest = (us: number) => (us / 1000 / requests).toFixed(3);
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  const total = [...byOrigin.values()].reduce((a, b) => a + b, 0);
  console.log(`\nmain thread, busy: ${perRequest(total)} ms per request (${requests} requests)`);
  console.log("\nby origin (ms per request)");
  for (const [name, us] of top(byOrigin, 20)) {
    console.log(`  ${perRequest(us).padStart(7)}  ${name}`);
  }
  console.log("\nhottest functions (self, ms per request)");
  for (const [name, us] of top(byFunction, 40)) {
    console.log(`  ${perRequest(us).padStart(7)}  ${name}`);
  }
}

const args = process.argv.slice(2).filter((arg) => arg !== "--perf");
/**
 * `--perf`: Linux perf's CPU clock samples of the API's threads instead of V8's profile; V8 samples wall
 * time (a main thread preempted inside a system call counts), perf only time on a core, kernel included.
 */
const withPerf = process.argv.includes("--perf");
/**
 * `perf record` of every thread of `pid` until `report`, which prints per request the main thread's CPU by
 * the origin of the innermost JavaScript frame (npm package, Node module, ours) and the functions with the
 * most CPU including what they call. JIT frames are named from V8's jitdump (`--perf-prof`, `perf inject
 * --jit`): the plain perf map names code by stale addresses once V8 has moved or freed it.
 */
function startPerf(pid: number, dir: string) {
  const file = resolve(dir, "perf.data");
  const recording = spawn(
    "perf",
    ["record", "-k", "mono", "-g", "-e", "cpu-clock", "-F", "4000", "-p", String(pid), "-o", file],
    {
      stdio: "ignore",
    },
  );
  return {
    async report(requests: number) {
      recording.kill("SIGINT");
      await new Promise((done) => recording.once("exit", done));
      execFileSync("perf", ["inject", "--jit", "-i", file, "-o", `${file}.jit`], {
        cwd: dir,
        stdio: "ignore",
      });
      const script = execFileSync(
        "perf",
        ["script", "-i", `${file}.jit`, "-F", "comm,ip,sym", "--comms", "MainThread"],
        {
          cwd: dir,
          encoding: "utf8",
          maxBuffer: 1 << 30,
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      summarisePerf(script, requests);
      console.log(`\nperf data: ${file}.jit (perf report -i …)`);
    },
  };
}

/** The origin of a JIT frame: npm package, Node core module or our bundle. */
function frameOrigin(frame: string): string {
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(frame)?.[1];
  if (pkg) {
    return pkg;
  }
  if (frame.includes("apps/api/dist/server.mjs")) {
    return "ours (bundle)";
  }
  return /\s(node:[\w/]+)/.exec(frame)?.[1] ?? "other JavaScript";
}

/** `perf script` samples (one cpu-clock sample = 0.25 ms): the main thread per request, as described above. */
function summarisePerf(script: string, requests: number) {
  const byOrigin = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let samples = 0;
  for (const sample of script.split(/\n\s*\n/)) {
    const frames = sample
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/).slice(1).join(" "))
      .filter(Boolean);
    if (frames.length === 0) {
      continue;
    }
    samples += 1;
    const js = frames.filter((frame) => frame.startsWith("JS:"));
    const inner = js[0];
    const stack = frames.join(" ");
    add(
      byOrigin,
      inner
        ? frameOrigin(inner)
        : /Heap::|Scavenge|Sweep|Marking/.test(stack)
          ? "native: garbage collection"
          : /epoll/.test(stack)
            ? "native: waiting for events (kernel)"
            : "native: other (libuv, http parser, kernel)",
    );
    for (const frame of new Set(
      js.map((f) => f.replace(/file:\/\/|\/\S*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/g, "")),
    )) {
      add(inclusive, frame);
    }
  }
  const ms = (n: number) => ((n * 0.25) / requests).toFixed(3).padStart(7);
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(
    `\nmain thread on a core: ${ms(samples).trim()} ms per request (${requests} requests, perf cpu-clock)`,
  );
  console.log("\nby origin of the innermost JavaScript frame (ms per request)");
  for (const [name, n] of top(byOrigin, 25)) {
    console.log(`  ${ms(n)}  ${name}`);
  }
  console.log("\nfunctions with what they call (ms per request; J:^ baseline, J:+ Maglev, J:* TurboFan)");
  for (const [name, n] of top(inclusive, 40)) {
    console.log(`  ${ms(n)}  ${name.replace(/^JS:/, "J:").slice(0, 120)}`);
  }
}

const kind = args[0] === "cold" ? "cold" : "login";
/** concurrent requests; with 1, the main thread rarely waits for a core, so wall time is close to CPU time */
const connections = Number(args[1] ?? (kind === "cold" ? 32 : 8));
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
let from = 0;
let to = 0;
const dir = resolve(repoRoot, `.data/bench-profile-${process.pid}`);
mkdirSync(dir, { recursive: true });
const database = await startBenchDatabase("profile");
try {
  const data = await seedRush(database.handle.db, 20_000);
  const jwtSecret = randomBytes(24).toString("hex");
  const server = await startProductionServer(
    database.url,
    { JWT_SECRET: jwtSecret },
    withPerf ? ["--perf-prof", "--interpreted-frames-native-stack"] : ["--cpu-prof", `--cpu-prof-dir=${dir}`],
    dir,
  );
  let perf: ReturnType<typeof startPerf> | undefined;
  let next = 0;
  let requests = 0;
  if (kind === "login") {
    const run = (ms: number) =>
      drive({
        url: server.url,
        connections,
        durationMs: ms,
        visitor: async (client) => {
          await login(client, data.emails(next++));
        },
      });
    await run(3000); // warm-up (JIT, connections), left out of the summary
    perf = withPerf ? startPerf(server.process.pid ?? 0, dir) : undefined;
    from = monotonicUs();
    requests = (await run(10_000)).endpoints.get("login")?.count ?? 0;
    to = monotonicUs();
  } else {
    const tokens = await coldOverviewTokens(database.handle.db, jwtSecret, 0, 20_000);
    perf = withPerf ? startPerf(server.process.pid ?? 0, dir) : undefined;
    from = monotonicUs();
    const result = await drive({
      url: server.url,
      connections,
      durationMs: 8000,
      visitor: async (client) => {
        await client.request("cold", {
          path: "/trpc/congress.getOverview",
          headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` },
        });
      },
    });
    requests = result.endpoints.get("cold")?.count ?? 0;
    to = monotonicUs();
  }
  if (perf) {
    await perf.report(requests);
    await server.stop();
    process.exit(0);
  }
  await server.stop();
  // the newest, should the folder hold one of an earlier run
  const file = (await readdir(dir))
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .at(-1);
  if (!file) {
    throw new Error(`no profile in ${dir}`);
  }
  summarise(JSON.parse(await readFile(resolve(dir, file), "utf8")) as CpuProfile, requests, from, to);
  console.log(`\nprofile: ${resolve(dir, file)} (open in Chrome DevTools)`);
} finally {
  await database.stop();
}
