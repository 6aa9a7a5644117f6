import { resolve } from "node:path";
import { createDb, type DbHandle, ensureDatabase, runMigrations, startEmbeddedPostgres } from "@app/db";
import { repoRoot } from "./report";

export interface BenchDatabase {
  url: string;
  handle: DbHandle;
  /** creates and migrates another database on the same server */
  another(name: string): Promise<{ url: string; handle: DbHandle }>;
  stop(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL with a migrated database `name`. The data folder lives in the
 * git-ignored `.data/` and is removed on stop.
 */
export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  const server = await startEmbeddedPostgres({
    dataDir: resolve(repoRoot, `.data/bench-pg-${process.pid}-${name}`),
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
    stop: async () => {
      await Promise.all(handles.map((h) => h.close().catch(() => {})));
      await server.stop();
    },
  };
}
