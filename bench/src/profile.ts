/**
 * `pnpm bench:profile <login|cold> [connections]`: a CPU profile of the production API during one kind of request, and
 * where its time goes, per request: by package (npm packages by name, our bundle by function) and the
 * hottest functions. Not a budget; the tool behind the figures in docs/performance.md ("Login budget",
 * "First overviews").
 */

import { randomBytes } from "node:crypto";
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

const kind = process.argv[2] === "cold" ? "cold" : "login";
/** concurrent requests; with 1, the main thread rarely waits for a core, so wall time is close to CPU time */
const connections = Number(process.argv[3] ?? (kind === "cold" ? 32 : 8));
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
let from = 0;
let to = 0;
const dir = resolve(repoRoot, `.data/bench-profile-${process.pid}`);
const database = await startBenchDatabase("profile");
try {
  const data = await seedRush(database.handle.db, 20_000);
  const jwtSecret = randomBytes(24).toString("hex");
  const server = await startProductionServer(database.url, { JWT_SECRET: jwtSecret }, [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
  ]);
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
    from = monotonicUs();
    requests = (await run(10_000)).endpoints.get("login")?.count ?? 0;
    to = monotonicUs();
  } else {
    const tokens = await coldOverviewTokens(database.handle.db, jwtSecret, 0, 20_000);
    from = monotonicUs();
    const result = await drive({
      url: server.url,
      connections,
      durationMs: 8000,
      visitor: async (client) => {
        await client.request("cold", {
          path: "/trpc/congress.overview",
          headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` },
        });
      },
    });
    requests = result.endpoints.get("cold")?.count ?? 0;
    to = monotonicUs();
  }
  await server.stop();
  // the newest: the bundle restarts itself once with its V8 flags (decision 65), and the first process
  // leaves a profile of its start-up too
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
