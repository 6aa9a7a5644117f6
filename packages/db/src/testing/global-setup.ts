import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { ensureDatabase } from "../admin";
import { createDb } from "../client";
import { startEmbeddedPostgres } from "../embedded";
import { defaultLocalStateDir } from "../local-database";
import { runMigrations } from "../migrate";
import type {} from "./provided";

export const TEMPLATE_DATABASE = "app_template";

/**
 * Vitest global setup: one throwaway PostgreSQL per test run with a migrated template database;
 * every test file then copies the template (see `createTestDatabase`). With `TEST_DATABASE_URL`
 * (a maintenance database URL of an external server) nothing is embedded.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  const server = external
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: `${defaultLocalStateDir}/test-pg-${process.pid}-${randomBytes(3).toString("hex")}`,
        persistent: false,
      });
  const adminUrl = external ?? server?.adminUrl ?? "";
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;

  await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  const handle = createDb(templateUrl.toString(), { max: 1 });
  try {
    await runMigrations(handle.pool);
  } finally {
    await handle.close();
  }
  project.provide("pgAdminUrl", adminUrl);
  return async () => {
    await server?.stop();
  };
}
