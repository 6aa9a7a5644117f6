import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))] },
});
