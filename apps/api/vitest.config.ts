import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [fileURLToPath(import.meta.resolve("@app/db/testing/global-setup"))],
    setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))],
    hookTimeout: 60_000,
    // integration tests on a real PostgreSQL, some rendering PDFs: 5 s was too tight on a machine busy with
    // the browser suite (a certificate test timed out at 5.3 s); no test asserts its own duration
    testTimeout: 20_000,
  },
});
