import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [fileURLToPath(import.meta.resolve("@app/db/testing/global-setup"))],
    hookTimeout: 60_000,
  },
});
