import { randomBytes } from "node:crypto";
import { freePort } from "@app/db";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium";

// Chosen once in the main process; workers inherit the variable and agree on the port.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_SMTP_PORT ??= String(await freePort());
process.env.E2E_MAIL_PORT ??= String(await freePort());
process.env.E2E_FAKE_PORT ??= String(await freePort());
process.env.E2E_SIMULATOR_PORT ??= String(await freePort());
process.env.E2E_PG_PORT ??= String(await freePort());
// the API's token key of this run: the tests' `signIn` fixture (e2e/fixtures.ts) signs what the login would
process.env.E2E_JWT_SECRET ??= randomBytes(32).toString("hex");
// the IPN passphrase of this run: tests sign payment notifications of their own (e2e/payments.ts)
process.env.E2E_IPN_PASSPHRASE ??= randomBytes(16).toString("hex");
// the overview is one list for everybody (the 6 newest current events): e2e/data.ts gives each test of
// the ones running at a time its share of it
const workers = 2;
process.env.E2E_WORKERS = String(workers);
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: chromiumLaunchOptions,
};

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // the long flows (several argon2id logins, two axe scans) take 20-35 s when two workers, the API and the
  // database share two busy cores, and a page then takes more than 5 s to render after a login now and
  // then; a state that never comes still fails, only later
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
    trace: "retain-on-failure",
  },
  // every test makes and removes its own data (e2e/data.ts), so all run in one project in any order
  projects: [{ name: "chromium", use: chromium }],
  webServer: {
    command: "tsx e2e/server.ts",
    url: `${baseURL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
