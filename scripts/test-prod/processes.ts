import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { freePort } from "@app/db";
import { startArgs } from "../start-command";

const root = resolve(import.meta.dirname, "../..");

/** A check that did not hold: what was expected and what happened, with the log that explains it. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly log = "",
  ) {
    super(message);
  }
}

export function expectThat(
  condition: boolean,
  expected: string,
  happened: string,
  log = "",
): asserts condition {
  if (!condition) {
    throw new Failure(`expected ${expected}\n  but ${happened}`, log);
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Every child this test started and that still runs: killed on the way out, however it ends. */
const running = new Set<ChildProcess>();
export function killChildren(): void {
  for (const child of running) {
    child.kill("SIGKILL");
  }
}
process.once("exit", killChildren);

export interface Started {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** everything the process printed so far (stdout and stderr interleaved) */
  output(): string;
  /** the last lines, for a failure report */
  tail(lines?: number): string;
}

export function track(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const chunks: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      done({ code, signal });
    });
    child.once("error", (error) => {
      running.delete(child);
      chunks.push(String(error));
      done({ code: -1, signal: null });
    });
  });
  const output = () => chunks.join("");
  const tail = (lines = 30) => output().trimEnd().split("\n").slice(-lines).join("\n");
  return { child, exited, output, tail };
}

/** Runs a command of the checkout to its end, as an operator types it; fails with its output's tail. */
export async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const started = track(command, args, env);
  const { code, signal } = await started.exited;
  expectThat(
    code === 0,
    `\`${[command, ...args].join(" ")}\` to succeed`,
    `it ended with ${signal ?? `exit code ${code}`}`,
    started.tail(),
  );
}

export interface Bundle extends Started {
  url: string;
  port: number;
}

/**
 * The bundle from the checkout's root with the V8 flags of `pnpm start`, as it runs it, with `env` and
 * nothing else of this shell's environment (a NODE_ENV or secret set here must not leak in).
 */
export async function startBundle(env: Record<string, string>): Promise<Bundle> {
  const port = await freePort();
  const started = track(process.execPath, startArgs(), {
    PATH: process.env.PATH ?? "",
    PORT: String(port),
    ...env,
  });
  return { ...started, port, url: `http://127.0.0.1:${port}` };
}

/**
 * Ends a bundle that should not be running any more: SIGTERM first, so one that started an embedded
 * PostgreSQL of its own (a broken configuration check) stops it too, SIGKILL after 10 s.
 */
export async function stopBundle(bundle: Bundle): Promise<void> {
  bundle.child.kill("SIGTERM");
  const timer = setTimeout(() => bundle.child.kill("SIGKILL"), 10_000);
  await bundle.exited;
  clearTimeout(timer);
}

/** Whether the bundle's /readyz answers 200 now. */
export async function isReady(bundle: Bundle): Promise<boolean> {
  return fetch(`${bundle.url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    (res) => res.ok,
    () => false,
  );
}

/** Waits until /readyz answers 200; fails when the process ends first or takes longer than `ms`. */
export async function waitReady(bundle: Bundle, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void bundle.exited.then((result) => {
    exit = result;
  });
  while (!(await isReady(bundle))) {
    expectThat(
      exit === undefined,
      "the production server to start and answer /readyz",
      `it exited with ${exit?.signal ?? `code ${exit?.code}`} during start-up`,
      bundle.tail(),
    );
    expectThat(
      Date.now() < until,
      `/readyz to answer 200 within ${ms / 1000} s`,
      "it did not",
      bundle.tail(),
    );
    await sleep(100);
  }
}

/** Whether nothing listens on 127.0.0.1:`port` (binding it succeeds). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

/** Values of its own for every secret a production bundle needs (ADR 0053). */
export function ownSecrets(): Record<string, string> {
  const secret = () => randomBytes(24).toString("base64url");
  return {
    JWT_SECRET: secret(),
    DIGISTORE_IPN_PASSPHRASE: secret(),
    CERTIFICATE_SECRET: secret(),
    GATED_PATH_COUPLE_THERAPY: `/pt-${secret()}`,
    GATED_PASSWORD_COUPLE_THERAPY: secret(),
    GATED_PATH_DEATH_CONGRESS: `/ts-${secret()}`,
    GATED_PASSWORD_DEATH_CONGRESS: secret(),
  };
}
