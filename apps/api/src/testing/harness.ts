import { createDb, schema } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/db/testing";
import type { Role } from "@app/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type BuildAppOptions, buildApp } from "../app";
import { secretKey, signAccessToken } from "../credentials/access-token";
import { type Env, loadEnv } from "../env";
import { type Jobs, startJobs } from "../jobs/boss";
import { createMailTransport } from "../mail-delivery/transport";
import { TestClock } from "./clock";
import { TestSmtpServer } from "./smtp";

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  env: Env;
  /** the in-process SMTP server receiving every mail (only with `mail: true`) */
  smtp: TestSmtpServer;
  jobs: Jobs | undefined;
  /** the time the app's services read: the system time until a test sets or moves it (ADR 0099) */
  clock: TestClock;
  tokenFor(userId: number, roles?: Role[]): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  webDistDir?: string;
  env?: Record<string, string>;
  /** run pg-boss and deliver mails to an in-process SMTP server; otherwise mails stay queued in the outbox */
  mail?: boolean;
  /**
   * a second API instance on the database of `first` (a pool of its own, like another process); the
   * database stays until `first` closes
   */
  sameDatabaseAs?: TestApp;
  /** receives every line of the app's own logger (set `env.LOG_LEVEL`, silent by default) */
  logStream?: BuildAppOptions["logStream"];
}

/** Another pool on an existing test database; closing it leaves the database to its owner. */
function secondPool(url: string): TestDatabase {
  const handle = createDb(url, { max: 5 });
  return { ...handle, url, destroy: () => handle.close() };
}

/** The real application on a database of its own; requests go through `app.inject`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.sameDatabaseAs?.db;
  const db = shared ? secondPool(shared.url) : await createTestDatabase();
  const smtp = new TestSmtpServer();
  if (options.mail) {
    await smtp.start();
  }
  const env = loadEnv({
    NODE_ENV: "test",
    DATABASE_URL: db.url,
    LOG_LEVEL: "silent",
    APP_URL: "http://app.test",
    SMTP_URL: options.mail ? smtp.url : "smtp://127.0.0.1:1",
    // tests write with fixtures, past the procedures that clear the caches; the database's change
    // notifications reach the cache a moment later (overview-cache.int.test.ts tests the caches as such)
    CATALOGUE_CACHE_MS: "0",
    OVERVIEW_CACHE_MS: "0",
    SESSION_STATE_CACHE_MS: "0",
    ...options.env,
  });
  const transport = createMailTransport(env.SMTP_URL);
  const clock = new TestClock();
  let jobs: Jobs | undefined;
  const app = await buildApp({
    env,
    db: db.db,
    webDistDir: options.webDistDir,
    logStream: options.logStream,
    clock,
    mail: {
      dispatch: (ids) => jobs?.dispatch(ids) ?? Promise.resolve(),
      defer: (request) => jobs?.defer(request) ?? Promise.resolve(),
    },
  });
  if (options.mail) {
    jobs = await startJobs({
      databaseUrl: db.url,
      db: db.db,
      transport,
      mailFrom: env.MAIL_FROM,
      appUrl: env.APP_URL,
      log: app.log,
      fast: true,
      clock,
      env,
    });
  }
  const key = secretKey(env.JWT_SECRET);
  return {
    app,
    db,
    env,
    smtp,
    jobs,
    clock,
    tokenFor: async (userId, roles = ["ROLE_USER"]) => {
      const [account] = await db.db
        .select({ sessionVersion: schema.users.sessionVersion })
        .from(schema.users)
        .where(eq(schema.users.id, userId));
      return (
        await signAccessToken(
          { id: userId, roles, sessionVersion: account?.sessionVersion ?? 0, sessionId: "test-session" },
          key,
          clock.now().getTime(),
        )
      ).token;
    },
    close: async () => {
      await app.close();
      await jobs?.stop();
      transport.close();
      await smtp.stop();
      await db.destroy();
    },
  };
}
