/**
 * The system under test for Playwright: a throwaway embedded PostgreSQL with the demo seed and the
 * production build of the API (which also serves the built web app) on E2E_PORT.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import {
  createDb,
  defaultLocalStateDir,
  ensureDatabase,
  runMigrations,
  seedDemo,
  startEmbeddedPostgres,
} from "@app/db";

const root = resolve(import.meta.dirname, "../../..");
const port = process.env.E2E_PORT ?? "3100";
const smtpPort = process.env.E2E_SMTP_PORT ?? "2525";
const mailPort = process.env.E2E_MAIL_PORT ?? "2080";

const pg = await startEmbeddedPostgres({
  dataDir: `${defaultLocalStateDir}/e2e-pg-${process.pid}`,
  persistent: false,
});
await ensureDatabase(pg.adminUrl, "e2e");
const url = pg.urlFor("e2e");
const handle = createDb(url, { max: 1 });
await runMigrations(handle.pool);
await seedDemo(handle.db);
await handle.close();

// MailDev catches every mail; tests read it through its REST API (GET /api/email)
const maildev = spawn(
  resolve(root, "node_modules/.bin/maildev"),
  ["--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--smtp", smtpPort, "--web", mailPort],
  { stdio: "ignore" },
);

const api = spawn(process.execPath, [resolve(root, "apps/api/dist/server.mjs")], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url,
    PORT: port,
    HOST: "127.0.0.1",
    JWT_SECRET: randomBytes(32).toString("hex"),
    APP_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOG_LEVEL: "warn",
  },
});

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) {
    return;
  }
  stopping = true;
  if (api.exitCode === null) {
    api.kill("SIGTERM");
    await new Promise((done) => api.once("exit", done));
  }
  maildev.kill("SIGTERM");
  await pg.stop();
  process.exit(code);
}

api.on("exit", (code) => {
  if (!stopping) {
    console.error(`API exited early with code ${code}`);
    void stop(1);
  }
});
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
