import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { chromiumLaunchOptions } from "./chromium.js";
import { alias } from "./vite.config.js";

/**
 * Two projects: the unit tests in Node, and the component tests (`*.browser.test.tsx`) in a real Chromium,
 * where the app's components render with its Tailwind styles and axe reads their layout (ADR 0138).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}"],
          exclude: ["src/**/*.browser.test.tsx"],
          environment: "node",
          setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))],
        },
      },
      {
        extends: true,
        plugins: [react(), tailwindcss()],
        test: {
          name: "components",
          include: ["src/**/*.browser.test.tsx"],
          // a hang detector, not a speed budget: `pnpm test` runs these beside the API's and the database's
          // suites, and on a busy CI host a file's first test (the admin section's first render and axe's
          // first run) once took 15 s, Vitest's default for the browser, where it takes 1.3 s on a quiet one
          testTimeout: 60_000,
          setupFiles: [
            fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup-browser")),
            "./src/test/setup.ts",
          ],
          browser: {
            enabled: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: "chromium" }],
            headless: true,
            // the e2e suite's desktop size (Playwright's "Desktop Chrome")
            viewport: { width: 1280, height: 720 },
            // the failure message names the dialog and each violation; no files beside the tests
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
