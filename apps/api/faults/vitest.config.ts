import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Fault-injection tests (`pnpm test:faults`): SMTP outage, a killed API during an IPN burst, a PostgreSQL
 * restart under load and graceful shutdown. Named `*.fault.ts`, so the normal `vitest run` never picks
 * them up. Files run one after another: they start processes and measure time, and two cores are shared.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["faults/**/*.fault.ts"],
    setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))],
    globalSetup: [
      fileURLToPath(import.meta.resolve("@app/db/testing/global-setup")),
      fileURLToPath(new URL("./build-bundle.ts", import.meta.url)),
    ],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
