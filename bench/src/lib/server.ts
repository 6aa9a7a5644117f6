import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { freePort } from "@app/db";
import { SMTPServer } from "smtp-server";
import { startArgs } from "../../../scripts/start-command";
import { repoRoot } from "./report";

export interface ProductionServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** BENCH_API_BUNDLE: another build's bundle to measure instead of this checkout's (an A/B of two commits) */
const otherBundle = process.env.BENCH_API_BUNDLE;
const serverBundle = otherBundle ? resolve(otherBundle) : resolve(repoRoot, "apps/api/dist/server.mjs");

/** Builds API and web app (turbo answers from its cache when nothing changed), once per run. */
let built = false;
export function ensureProductionBuild(): void {
  if (built || otherBundle) {
    return;
  }
  execFileSync("pnpm", ["build"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
  built = true;
}

/**
 * An SMTP server that takes every mail and forgets it: the API's outbox delivers as on a normal congress
 * morning. (With a closed port instead, every pending mail was rendered and tried again and again during
 * the measurements, work no login or overview causes.)
 */
async function startSmtpSink(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.once("end", () => callback());
    },
  });
  const port = await freePort();
  await new Promise<void>((ready) => server.listen(port, "127.0.0.1", ready));
  return { port, close: () => new Promise((done) => server.close(() => done())) };
}

/**
 * The production build (`node apps/api/dist/server.mjs`, API and web app on one port) against
 * `databaseUrl`, with production settings, throwaway secrets and an SMTP sink.
 */
export async function startProductionServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  /** extra node flags, e.g. `--cpu-prof` when looking for hot spots */
  nodeArgs: string[] = [],
  /** the server's working folder (where `--perf-prof` writes its jitdump); the caller's by default */
  cwd?: string,
): Promise<ProductionServer> {
  ensureProductionBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const secret = () => randomBytes(24).toString("hex");
  const smtp = await startSmtpSink();
  // as `pnpm start` runs it: its V8 flags, then ours
  const child = spawn(process.execPath, [...nodeArgs, ...startArgs(serverBundle)], {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: "false",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: url,
      JWT_SECRET: secret(),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LOG_LEVEL: "warn",
      DIGISTORE_IPN_PASSPHRASE: secret(),
      CERTIFICATE_SECRET: secret(),
      GATED_PATH_COUPLE_THERAPY: `/bench-${secret()}`,
      GATED_PASSWORD_COUPLE_THERAPY: secret(),
      GATED_PATH_DEATH_CONGRESS: `/bench-${secret()}`,
      GATED_PASSWORD_DEATH_CONGRESS: secret(),
      ...env,
    },
  });
  const exited = new Promise<number | null>((done) => child.once("exit", done));
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the API exited with code ${child.exitCode} during start-up`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) {
      break;
    }
    if (Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error("the API did not become ready within 90 s");
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await smtp.close();
    },
  };
}
