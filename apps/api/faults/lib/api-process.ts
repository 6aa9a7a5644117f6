import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { freePort } from "@app/db";
import { startArgs } from "../../../../scripts/start-command";

export const apiRoot = resolve(import.meta.dirname, "../..");
export const serverBundle = resolve(apiRoot, "dist/server.mjs");

const secret = () => randomBytes(24).toString("hex");

/** Production secrets of one test file; the tests sign IPNs and tokens with them. */
export interface ApiSecrets {
  jwtSecret: string;
  ipnPassphrase: string;
  /** the same on every instance of a test: each makes the certificates' codes (ADR 0116) */
  certificateSecret?: string;
}

export function newSecrets(): ApiSecrets {
  return { jwtSecret: secret(), ipnPassphrase: secret(), certificateSecret: secret() };
}

export interface ApiProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** resolves with the exit code (null after a signal) and the signal */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** the last lines the process wrote (JSON log lines), for failure messages */
  output(): string;
  /** SIGTERM, then SIGKILL when it does not exit within `graceMs`; a no-op once it has exited */
  stop(graceMs?: number): Promise<void>;
}

export interface StartApiOptions {
  databaseUrl: string;
  secrets: ApiSecrets;
  /** the same port again after a restart (the provider keeps posting to the same URL) */
  port?: number;
  smtpUrl?: string;
  env?: Record<string, string>;
}

const running = new Set<ChildProcess>();
// last resort when the test worker ends without its afterAll (a crash): no API process is left behind
process.once("exit", () => {
  for (const child of running) {
    child.kill("SIGKILL");
  }
});

/**
 * The production bundle as `pnpm start` runs it (its V8 flags), its own process against `databaseUrl`, with
 * production settings; resolves once `/readyz` answers 200.
 */
export async function startApi(options: StartApiOptions): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, startArgs(serverBundle), {
    cwd: apiRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      DATABASE_URL: options.databaseUrl,
      MIGRATE_ON_START: "false",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: url,
      JWT_SECRET: options.secrets.jwtSecret,
      DIGISTORE_IPN_PASSPHRASE: options.secrets.ipnPassphrase,
      CERTIFICATE_SECRET: options.secrets.certificateSecret ?? secret(),
      // a closed port unless the test runs an SMTP server: mails stay in the outbox
      SMTP_URL: options.smtpUrl ?? "smtp://127.0.0.1:1",
      LOG_LEVEL: "warn",
      GATED_PATH_COUPLE_THERAPY: `/faults-${secret()}`,
      GATED_PASSWORD_COUPLE_THERAPY: secret(),
      GATED_PATH_DEATH_CONGRESS: `/faults-${secret()}`,
      GATED_PASSWORD_DEATH_CONGRESS: secret(),
      ...options.env,
    },
  });
  running.add(child);
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 1000));
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      done({ code, signal });
    });
  });
  const output = () => lines.join("\n");

  const api: ApiProcess = {
    url,
    port,
    child,
    exited,
    output,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the API exited during start-up (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) {
      return api;
    }
    if (Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`the API did not become ready within 30 s:\n${output()}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

export interface Timed {
  /** HTTP status, or 0 when no answer arrived (connection refused or reset, timeout) */
  status: number;
  body: string;
  error?: string;
  startedAt: number;
  ms: number;
}

/** One request with a client-side timeout, never throwing: failures come back as status 0. */
export async function timedFetch(url: string, init: RequestInit = {}, timeoutMs = 20_000): Promise<Timed> {
  const startedAt = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { status: res.status, body, startedAt, ms: Date.now() - startedAt };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      status: 0,
      body: "",
      error: cause ?? (error as Error).name,
      startedAt,
      ms: Date.now() - startedAt,
    };
  }
}

/** Logs in through the REST path of the spec and returns the access token. */
export async function login(api: ApiProcess, email: string, password: string): Promise<Timed> {
  return timedFetch(`${api.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
}
