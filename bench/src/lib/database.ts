import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createDb, type DbHandle, ensureDatabase, runMigrations, startEmbeddedPostgres } from "@app/db";
import { repoRoot } from "./report";

export interface BenchDatabase {
  url: string;
  handle: DbHandle;
  /** creates and migrates another database on the same server */
  another(name: string): Promise<{ url: string; handle: DbHandle }>;
  /** the postmaster's process id: its children are the backends (for their CPU and memory) */
  postmasterPid(): number;
  stop(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL with a migrated database `name`. The data folder lives in the
 * git-ignored `.data/` and is removed on stop.
 */
export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  const dataDir = resolve(repoRoot, `.data/bench-pg-${process.pid}-${name}`);
  const server = await startEmbeddedPostgres({
    dataDir,
    persistent: false,
  });
  const handles: DbHandle[] = [];
  const open = async (database: string) => {
    await ensureDatabase(server.adminUrl, database);
    const url = server.urlFor(database);
    const handle = createDb(url, { max: 8 });
    handles.push(handle);
    await runMigrations(handle.pool);
    return { url, handle };
  };
  const main = await open(name);
  return {
    ...main,
    another: open,
    // the first line of postmaster.pid is the server's pid
    postmasterPid: () => Number(readFileSync(resolve(dataDir, "postmaster.pid"), "utf8").split("\n")[0]),
    stop: async () => {
      await Promise.all(handles.map((h) => h.close().catch(() => {})));
      await server.stop();
    },
  };
}
