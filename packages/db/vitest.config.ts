import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./src/testing/global-setup.ts"],
    setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))],
    hookTimeout: 60_000,
  },
});
