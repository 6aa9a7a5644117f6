import { createDb, isEmpty, openLocalDatabase, runMigrations, seedDemo } from "@app/db";
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app";
import { EnvError, loadEnv, type NodeEnv } from "./env";
import { type Jobs, startJobs } from "./jobs/boss";
import { createMailTransport } from "./mail-delivery/transport";
import { paths } from "./paths";

/**
 * "production" in dist/server.mjs (build.ts defines it), undeclared under tsx and Vitest: the built
 * bundle means production unless NODE_ENV says otherwise (ADR 0053).
 */
declare const BUNDLE_DEFAULT_NODE_ENV: NodeEnv | undefined;
const defaultNodeEnv: NodeEnv =
  typeof BUNDLE_DEFAULT_NODE_ENV === "undefined" ? "development" : BUNDLE_DEFAULT_NODE_ENV;

async function main(): Promise<void> {
  const env = loadEnv(process.env, { defaultNodeEnv });
  // Without DATABASE_URL (never in production, see env.ts) an embedded PostgreSQL is started and seeded.
  const local = await openLocalDatabase(env.DATABASE_URL, { stateDir: paths.localState });
  const database = createDb(local.url, {
    max: env.DATABASE_POOL_SIZE,
    queryTimeoutMs: env.DATABASE_QUERY_TIMEOUT_MS,
  });

  if (env.MIGRATE_ON_START ?? env.NODE_ENV !== "production") {
    await runMigrations(database.pool, paths.migrations);
  }
  if (local.embedded && (await isEmpty(database.db))) {
    await seedDemo(database.db);
  }

  const transport = createMailTransport(env.SMTP_URL);
  let jobs: Jobs | undefined;
  const app = await buildApp({
    env,
    db: database.db,
    webDistDir: env.WEB_DIST_DIR ?? paths.webDist,
    mail: {
      dispatch: (ids) => jobs?.dispatch(ids) ?? Promise.resolve(),
      defer: (request) => jobs?.defer(request) ?? Promise.resolve(),
    },
  });
  database.pool.on("error", (error) => app.log.warn({ err: error }, "idle database connection failed"));
  jobs = await startJobs({
    databaseUrl: local.url,
    db: database.db,
    transport,
    mailFrom: env.MAIL_FROM,
    appUrl: env.APP_URL,
    log: app.log,
    env,
  });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, "shutting down after an error");
    } else {
      app.log.info({ signal }, "shutting down");
    }
    await app.close();
    await jobs?.stop();
    transport.close();
    await database.close();
    await local.stop();
  });

  await app.listen({ port: env.PORT, host: env.HOST });
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
