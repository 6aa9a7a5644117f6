import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Only for the scripts' tests (`vitest run --dir scripts`); every package has its own config.
export default defineConfig({
  test: { setupFiles: [fileURLToPath(import.meta.resolve("@app/shared/testing/console-setup"))] },
});
