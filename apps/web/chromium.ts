import { existsSync } from "node:fs";

/**
 * Debian's headless Chromium (`chromium-headless-shell`, the build Playwright itself runs headless tests on)
 * when it is installed, otherwise the full browser: the shell has no browser UI to draw, and the e2e suite's
 * tests take about 40 % less time on it (ADR 0140). `CHROMIUM_PATH` names another binary, e.g.
 * `/usr/bin/chromium` to watch a test with `--headed`.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * Debian's Chromium as Playwright launches it, for the e2e suite (playwright.config.ts) and the component
 * tests (vitest.config.ts): Playwright's own browser builds cannot be downloaded here (TOOLCHAIN.md).
 */
export const chromiumLaunchOptions = {
  executablePath:
    process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
};
