import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [fileURLToPath(import.meta.resolve("@app/db/testing/global-setup"))],
    setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))],
    hookTimeout: 60_000,
  },
});
