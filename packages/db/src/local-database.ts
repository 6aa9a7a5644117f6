import { fileURLToPath } from "node:url";
import { ensureDatabase } from "./admin";
import { startEmbeddedPostgres } from "./embedded";

/** Git-ignored folder at the repository root for local state (database, mail catcher, browser profiles). */
export const defaultLocalStateDir = fileURLToPath(new URL("../../../.data", import.meta.url));
export const DEV_DATABASE_NAME = "kongress";
const DEV_POSTGRES_PORT = 54329;

export interface LocalDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * The database for dev and the db CLIs: `DATABASE_URL` when given, else the embedded PostgreSQL in
 * `.data/postgres`, started (or reused when a previous run left it running) and kept between runs.
 */
export async function openLocalDatabase(
  databaseUrl: string | undefined,
  options: { stateDir?: string; log?: (line: string) => void } = {},
): Promise<LocalDatabase> {
  if (databaseUrl) {
    return { url: databaseUrl, embedded: false, stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({
    dataDir: `${options.stateDir ?? defaultLocalStateDir}/postgres`,
    persistent: true,
    port: DEV_POSTGRES_PORT,
    ...(options.log ? { log: options.log } : {}),
  });
  await ensureDatabase(server.adminUrl, DEV_DATABASE_NAME);
  return { url: server.urlFor(DEV_DATABASE_NAME), embedded: true, stop: server.stop };
}
