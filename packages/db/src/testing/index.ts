import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { dropDatabase, ensureDatabase } from "../admin";
import { createDb, type DbHandle } from "../client";
import type {} from "./provided";

export interface TestDatabase extends DbHandle {
  url: string;
  /** closes the pool and drops the database */
  destroy(): Promise<void>;
}

/** A fresh, migrated database of its own, copied from the template made in global setup. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("pgAdminUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await ensureDatabase(adminUrl, name, "app_template");
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDb(url.toString(), { max: 5 });
  return {
    ...handle,
    url: url.toString(),
    destroy: async () => {
      await handle.close();
      await dropDatabase(adminUrl, name);
    },
  };
}
