import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import {
  createDb,
  type DbHandle,
  defaultLocalStateDir,
  type EmbeddedPostgresHandle,
  ensureDatabase,
  runMigrations,
  seedDemo,
  startEmbeddedPostgres,
} from "@app/db";

const DATABASE_NAME = "faults";

export interface FaultDatabase {
  /** URL of the migrated application database */
  url: string;
  port: number;
  dataDir: string;
  /** a small pool of the test itself, for fixtures and for reading the outcome */
  handle: DbHandle;
  /** stops PostgreSQL; a persistent server keeps its data folder for `restart` */
  stop(): Promise<void>;
  /** starts the stopped server again on the same port (persistent only) */
  restart(): Promise<void>;
  /**
   * SIGSTOP to the server and every backend: connections stay open but nothing answers, as with a hung
   * server or a network partition (new connections are still accepted by the kernel, then stall)
   */
  freeze(): void;
  /** SIGCONT to the processes frozen before */
  thaw(): void;
  /** stops PostgreSQL if running, closes the pool and removes the data folder */
  destroy(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL of its own in `.data/` (git-ignored) with the migrated application
 * database, optionally with the demo seed. `persistent` keeps the data folder across `stop`/`restart`;
 * `destroy` removes it either way.
 */
export async function startFaultDatabase(
  name: string,
  options: { persistent?: boolean; seed?: boolean } = {},
): Promise<FaultDatabase> {
  const dataDir = `${defaultLocalStateDir}/faults-${name}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const persistent = options.persistent ?? false;
  let server: EmbeddedPostgresHandle | undefined = await startEmbeddedPostgres({ dataDir, persistent });
  const port = server.port;
  let handle: DbHandle | undefined;
  try {
    await ensureDatabase(server.adminUrl, DATABASE_NAME);
    const url = server.urlFor(DATABASE_NAME);
    handle = createDb(url, { max: 4 });
    await runMigrations(handle.pool);
    if (options.seed) {
      await seedDemo(handle.db);
    }
    const pool = handle;
    let frozen: string[] = [];
    const thaw = () => {
      if (frozen.length > 0) {
        execFileSync("kill", ["-CONT", ...frozen]);
        frozen = [];
      }
    };
    return {
      url,
      port,
      dataDir,
      handle: pool,
      stop: async () => {
        const running = server;
        server = undefined;
        await running?.stop();
      },
      restart: async () => {
        if (!persistent) {
          throw new Error("only a persistent database can be restarted");
        }
        if (server) {
          return;
        }
        server = await startEmbeddedPostgres({ dataDir, persistent, port });
        if (server.port !== port) {
          const moved = server;
          server = undefined;
          await moved.stop();
          throw new Error(`PostgreSQL could not get its port ${port} back (got ${moved.port})`);
        }
      },
      freeze: () => {
        const postmaster = readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0] ?? "";
        const backends = execFileSync("pgrep", ["-P", postmaster]).toString().trim().split("\n");
        frozen = [postmaster, ...backends].filter(Boolean);
        execFileSync("kill", ["-STOP", ...frozen]);
      },
      thaw,
      destroy: async () => {
        // a frozen server would never act on the stop signal
        thaw();
        await pool.close().catch(() => {});
        const running = server;
        server = undefined;
        await running?.stop().catch(() => {});
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await handle?.close().catch(() => {});
    await server?.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
