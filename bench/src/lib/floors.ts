import { fork } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { freePort } from "@app/db";
import { startFlags } from "../../../scripts/start-command";
import { repoRoot } from "./report";

/** A reference server in a child process of its own: its address and pid (for its CPU in /proc). */
export interface ReferenceServer {
  url: string;
  pid: number;
  stop(): void;
}

async function forkServer(what: string, file: string, args: string[], execArgv: string[]) {
  const port = await freePort();
  const child = fork(
    resolve(import.meta.dirname, file),
    [...args.slice(0, 1), String(port), ...args.slice(1)],
    {
      stdio: "inherit",
      execArgv,
    },
  );
  await new Promise<void>((ready, fail) => {
    child.once("message", () => ready());
    child.once("exit", (code) => fail(new Error(`${what} exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () => {
      child.kill("SIGTERM");
    },
  };
}

/**
 * The least a login costs on Node (floor-login-server.mjs: node:http, two statements, the same argon2id
 * verify, token, cookies; no framework, limits or checks), with the API's V8 flags.
 */
export const startFloorLoginServer = (databaseUrl: string): Promise<ReferenceServer> =>
  forkServer("the floor login server", "floor-login-server.mjs", [databaseUrl], startFlags());

/**
 * The least a visitor's first overview costs on Node (floor-overview-server.ts: node:http, one HMAC, the
 * API's overview service, the same bytes), with the API's V8 flags; under tsx, since it imports the API's
 * TypeScript.
 */
export const startFloorOverviewServer = (databaseUrl: string, jwtSecret: string): Promise<ReferenceServer> =>
  forkServer(
    "the floor overview server",
    "floor-overview-server.ts",
    [databaseUrl, jwtSecret],
    [...startFlags(), "--import", "tsx"],
  );

/** The bare Fastify process answering `body` at /overview. */
export async function startBareFastify(body: unknown): Promise<ReferenceServer> {
  const dir = await mkdtemp(resolve(repoRoot, ".data/bench-bare-"));
  const file = resolve(dir, "overview.json");
  await writeFile(file, JSON.stringify(body));
  const server = await forkServer("bare Fastify", "bare-server.mjs", [file], process.execArgv);
  return {
    ...server,
    stop: () => {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
