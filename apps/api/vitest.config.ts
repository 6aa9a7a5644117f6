import { availableParallelism } from "node:os";
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
    // one worker more than cores: the files wait on PostgreSQL much of the time. A/B on the 2-core host, the
    // suite alone (docs/performance/history.md, Part 3): 548 s with 2 workers (Vitest's default), 412 s with 3
    maxWorkers: availableParallelism() + 1,
  },
});
