import { createTestDatabase, type TestDatabase } from "@app/db/testing";
import type { Role } from "@app/shared";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { secretKey, signAccessToken } from "../auth/access-token";
import { type Env, loadEnv } from "../env";

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  env: Env;
  tokenFor(userId: number, roles?: Role[]): Promise<string>;
  close(): Promise<void>;
}

/** The real application on a database of its own; requests go through `app.inject`. */
export async function createTestApp(options: { webDistDir?: string; env?: Record<string, string> } = {}) {
  const db = await createTestDatabase();
  const env = loadEnv({ NODE_ENV: "test", DATABASE_URL: db.url, LOG_LEVEL: "silent", ...options.env });
  const app = await buildApp({ env, db: db.db, webDistDir: options.webDistDir });
  const key = secretKey(env.JWT_SECRET);
  return {
    app,
    db,
    env,
    tokenFor: async (userId: number, roles: Role[] = ["ROLE_USER"]) =>
      (await signAccessToken({ id: userId, roles }, key)).token,
    close: async () => {
      await app.close();
      await db.destroy();
    },
  } satisfies TestApp;
}
