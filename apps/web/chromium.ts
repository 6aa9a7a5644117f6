/**
 * Debian's Chromium as Playwright launches it, for the e2e suite (playwright.config.ts) and the component
 * tests (vitest.config.ts): Playwright's own browser builds cannot be downloaded here (TOOLCHAIN.md).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
};
