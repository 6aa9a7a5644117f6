import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { helmetOptions, securityHeaders } from "./security-headers";

/** The headers helmet sets on a real answer of Node's HTTP server, as middleware. */
async function helmetOnARealAnswer(
  options: ReturnType<typeof helmetOptions>,
): Promise<Record<string, string>> {
  const middleware = helmet(options);
  const server = createServer((req, res) => {
    middleware(req, res, () => res.end("ok"));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const plain = ["date", "connection", "keep-alive", "content-length", "transfer-encoding"];
    return Object.fromEntries([...res.headers].filter(([name]) => !plain.includes(name)));
  } finally {
    server.close();
  }
}

describe("security headers computed once", () => {
  for (const NODE_ENV of ["production", "development"] as const) {
    it(`are exactly the headers helmet sets on a real answer (${NODE_ENV})`, async () => {
      const options = helmetOptions({ NODE_ENV });
      const once = securityHeaders(options);
      expect(once).toEqual(await helmetOnARealAnswer(options));
      expect(once["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect("strict-transport-security" in once).toBe(NODE_ENV === "production");
    });
  }
});
