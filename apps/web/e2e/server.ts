/**
 * The system under test for Playwright: a throwaway embedded PostgreSQL with the demo seed and the
 * production build of the API (which also serves the built web app) on E2E_PORT.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { connect } from "node:net";
import { resolve } from "node:path";
import {
  createDb,
  defaultLocalStateDir,
  ensureDatabase,
  runMigrations,
  seedDemo,
  startEmbeddedPostgres,
} from "@app/db";
import { startArgs } from "../../../scripts/start-command";
import { startCheckoutSimulator } from "../../api/src/simulator/checkout-simulator";
import { E2E_GATED, E2E_VIMEO_LENGTHS } from "./constants";

const root = resolve(import.meta.dirname, "../../..");
const port = process.env.E2E_PORT ?? "3100";
const smtpPort = process.env.E2E_SMTP_PORT ?? "2525";
const mailPort = process.env.E2E_MAIL_PORT ?? "2080";
const fakePort = process.env.E2E_FAKE_PORT ?? "2081";
const simulatorPort = process.env.E2E_SIMULATOR_PORT ?? "2082";
const fakeOrigin = `http://127.0.0.1:${fakePort}`;

/**
 * The video host's oEmbed endpoint with a thumbnail, faked at the wire (the checkout is the simulator); a
 * length only for the ids of E2E_VIMEO_LENGTHS.
 */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const fakes = createServer((req, res) => {
  const url = new URL(req.url ?? "/", fakeOrigin);
  if (url.pathname === "/oembed.json") {
    const id = url.searchParams.get("url")?.match(/(\d+)$/)?.[1] ?? "?";
    res.writeHead(200, { "content-type": "application/json" });
    const duration = E2E_VIMEO_LENGTHS[id];
    res.end(
      JSON.stringify({
        title: `Vortrag ${id}`,
        thumbnail_url: `${fakeOrigin}/thumbnail.png`,
        ...(duration !== undefined && { duration }),
      }),
    );
  } else if (url.pathname === "/thumbnail.png") {
    res.writeHead(200, { "content-type": "image/png" });
    res.end(PIXEL_PNG);
  } else {
    res.writeHead(404).end();
  }
});
await new Promise<void>((done) => fakes.listen(Number(fakePort), "127.0.0.1", done));

const passphrase = process.env.E2E_IPN_PASSPHRASE ?? randomBytes(16).toString("hex");
const simulator = await startCheckoutSimulator({
  port: Number(simulatorPort),
  ipnUrl: `http://127.0.0.1:${port}/api/digistore/ipn`,
  appUrl: `http://127.0.0.1:${port}`,
  passphrase,
});

// on the port the config chose, where the tests' data fixture (e2e/data.ts) finds the database too
const pgPort = Number(process.env.E2E_PG_PORT ?? "0");
const pg = await startEmbeddedPostgres({
  dataDir: `${defaultLocalStateDir}/e2e-pg-${process.pid}`,
  persistent: false,
  port: pgPort,
});
if (pgPort && pg.port !== pgPort) {
  await pg.stop();
  throw new Error(`PostgreSQL got port ${pg.port}, the tests expect ${pgPort}`);
}
await ensureDatabase(pg.adminUrl, "e2e");
const url = pg.urlFor("e2e");
const handle = createDb(url, { max: 1 });
await runMigrations(handle.pool);
await seedDemo(handle.db);
// the overview picks its six events by date, running ones first (ADR 0084): the seed's running and coming
// events would take places the tests' own events need (e2e/data.ts), and no test uses them (ADR 0077)
await handle.pool.query("UPDATE congresses SET visible = false");
await handle.close();

// MailDev catches every mail; tests read it through its REST API (GET /api/email)
const maildev = spawn(
  resolve(root, "node_modules/.bin/maildev"),
  ["--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--smtp", smtpPort, "--web", mailPort],
  { stdio: "ignore" },
);

/** Resolves once something accepts TCP connections on the port (MailDev needs a moment to start). */
async function portAccepts(portNumber: string, deadline = Date.now() + 30_000): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(Number(portNumber), "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    if (open) {
      return;
    }
    if (Date.now() > deadline || maildev.exitCode !== null) {
      throw new Error(`MailDev is not listening on port ${portNumber}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}
// the API sends mail and the tests read MailDev from their first second: both ports must be open first
await portAccepts(smtpPort);
await portAccepts(mailPort);

// the bundle as `pnpm start` runs it (its V8 flags)
const api = spawn(process.execPath, startArgs(), {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url,
    PORT: port,
    HOST: "127.0.0.1",
    // the key the tests' `signIn` fixture signs sessions with as well (e2e/fixtures.ts)
    JWT_SECRET: process.env.E2E_JWT_SECRET ?? randomBytes(32).toString("hex"),
    APP_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOG_LEVEL: "warn",
    // accounts made through the API come "from" addresses of their own (fixtures.ts), as real visitors
    // do; otherwise the whole suite shares one address's registration limit (20 an hour)
    TRUST_PROXY: "127.0.0.1",
    DIGISTORE_PRODUCT_URL: simulator.productUrl,
    DIGISTORE_IPN_PASSPHRASE: passphrase,
    CERTIFICATE_SECRET: randomBytes(32).toString("hex"),
    VIMEO_OEMBED_URL: `${fakeOrigin}/oembed.json`,
    GATED_PATH_COUPLE_THERAPY: E2E_GATED.couple.path,
    GATED_PASSWORD_COUPLE_THERAPY: E2E_GATED.couple.password,
    GATED_PATH_DEATH_CONGRESS: E2E_GATED.death.path,
    GATED_PASSWORD_DEATH_CONGRESS: E2E_GATED.death.password,
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
  fakes.close();
  await simulator.close();
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
