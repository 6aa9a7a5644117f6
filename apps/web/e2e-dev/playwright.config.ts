import { freePort } from "@app/db";
import { defineConfig } from "@playwright/test";
import baseConfig from "../playwright.config";

/**
 * `pnpm test:dev`: the README's first command as a test (e2e-dev/pnpm-dev.spec.ts). The ports are chosen
 * here once and handed to `pnpm dev` through the variables it documents; E2E_MAIL_PORT lets the e2e
 * fixtures read the dev mail catcher.
 */
process.env.DEV_TEST_PORT ??= String(await freePort());
process.env.DEV_TEST_WEB_PORT ??= String(await freePort());
process.env.DEV_TEST_SMTP_PORT ??= String(await freePort());
process.env.DEV_TEST_SIMULATOR_PORT ??= String(await freePort());
process.env.E2E_MAIL_PORT ??= String(await freePort());

export default defineConfig({
  testDir: ".",
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  // two starts of everything (the first one seeds), a user's whole first visit and two shutdowns
  timeout: 8 * 60_000,
  expect: { timeout: 20_000 },
  use: {
    ...baseConfig.use,
    baseURL: `http://localhost:${process.env.DEV_TEST_WEB_PORT}`,
    // a page that never shows what a step waits for fails that step with its trace, instead of waiting
    // out the whole test's time
    actionTimeout: 60_000,
    navigationTimeout: 60_000,
  },
  projects: [{ name: "chromium", use: baseConfig.projects?.[0]?.use ?? {} }],
});
