// The least a visitor's first overview can cost on Node, the reference for the API's (docs/performance.md,
// "Budgets against the floor"): node:http without a framework, the bearer token checked with one HMAC, the
// API's own overview service (the same prepared statement for the visitor, the same shared lists kept per
// process, the same mapping) and the same bytes on the wire as the API's GET path. No context, session
// cache, kept answers, security headers, request ids or logging: what the API does besides these is its own
// cost. Runs under tsx (it imports the API's TypeScript), forked by rush.ts with the API's V8 flags.
// Arguments: the database URL, the port and the API's JWT secret; sends "ready" to its parent once it listens.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { createDb } from "@app/db";
import { loadEnv } from "../../../apps/api/src/env";
import { systemClock } from "../../../apps/api/src/services/deps";
import { overview } from "../../../apps/api/src/services/visitor/overview";

const [databaseUrl = "", port = "0", jwtSecret = ""] = process.argv.slice(2);
const { db } = createDb(databaseUrl, { max: 10 });
// the API's defaults (CATALOGUE_CACHE_MS: the shared lists kept 5 s, STAFF_EMAILS empty)
const env = loadEnv({ NODE_ENV: "test", DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret });
const BEARER = "Bearer ";

/** the subject of an HS256 token signed with the API's secret and not expired (no other check: a floor) */
function subject(token: string): string | undefined {
  const [header, payload, signature = ""] = token.split(".");
  const expected = createHmac("sha256", jwtSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (payload === undefined || given.length !== expected.length || !timingSafeEqual(expected, given)) {
    return undefined;
  }
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: string; exp?: number };
  return (claims.exp ?? 0) > Date.now() / 1000 ? claims.sub : undefined;
}

createServer((req, res) => {
  const header = req.headers.authorization ?? "";
  const sub = header.startsWith(BEARER) ? subject(header.slice(BEARER.length)) : undefined;
  if (!sub) {
    res.writeHead(401, { "content-type": "application/json" }).end("{}");
    return;
  }
  overview({ db, env, clock: systemClock }, Number(sub)).then(
    (answer) => {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(`{"result":{"data":{"json":${JSON.stringify(answer)}}}}`);
    },
    (error: unknown) => {
      res.writeHead(500).end(String(error));
    },
  );
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
