import { createDb, type Db } from "../client";
import { openLocalDatabase } from "../local-database";
import { runMigrations } from "../migrate";

/** Opens the configured (or embedded) database, runs `task`, and stops what it started. */
export async function withDatabase(task: (db: Db) => Promise<void>): Promise<void> {
  const local = await openLocalDatabase(process.env.DATABASE_URL, { log: (line) => console.log(line) });
  const handle = createDb(local.url, { max: 2 });
  try {
    await runMigrations(handle.pool, undefined, (message) => console.log(message));
    await task(handle.db);
  } finally {
    await handle.close();
    await local.stop();
  }
}

export function runCli(task: () => Promise<void>): void {
  task().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
