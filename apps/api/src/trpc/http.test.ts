import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { TRPC_CHECKED_VERSION } from "./http";

const installed = (createRequire(import.meta.url)("@trpc/server/package.json") as { version: string })
  .version;

describe("the GET path of the tRPC endpoint (http.ts)", () => {
  it("runs on the @trpc/server version it was checked against", () => {
    expect(
      installed,
      `@trpc/server is ${installed}, but the GET path in apps/api/src/trpc/http.ts was checked against ` +
        `${TRPC_CHECKED_VERSION}: it uses tRPC's internals (router._def, unstable-core-do-not-import). Run ` +
        `apps/api/src/trpc/http.int.test.ts ("GET queries answered without tRPC's fetch adapter", which ` +
        `compares every answer with tRPC's own Fastify plugin), read the release notes for changes to the ` +
        `wire format, errors and status codes the cases there do not cover, add cases for them, and only ` +
        `then set TRPC_CHECKED_VERSION to ${installed}.`,
    ).toBe(TRPC_CHECKED_VERSION);
  });
});
