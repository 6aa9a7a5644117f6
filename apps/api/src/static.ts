import { CERTIFICATE_VERIFY_PATH, MSG } from "@app/shared";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api/", "/trpc/", "/healthz", "/readyz", "/uploads/"];

/**
 * Serves the built web app (pre-compressed where the build left .br/.gz files); unknown GET paths outside
 * the API get index.html (history-mode routing).
 */
export async function registerWebApp(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // the web build writes .br and .gz beside every text file; browsers get the smallest they accept
    preCompressed: true,
    setHeaders: (res, filePath) => {
      // hashed file names under assets/ never change; everything else is revalidated
      const immutable = filePath.includes("/assets/");
      res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  // wildcard: false registers a route per file that existed at start-up; everything else lands here
  app.setNotFoundHandler((req, reply) => {
    const isApi = API_PREFIXES.some((prefix) => req.url.startsWith(prefix));
    if ((req.method === "GET" || req.method === "HEAD") && !isApi) {
      if (req.url.startsWith(CERTIFICATE_VERIFY_PATH)) {
        // a certificate's verification page: never in a search index, and its address (the code) never
        // handed on to another site in a Referer (ADR 0117)
        reply.header("x-robots-tag", "noindex, nofollow").header("referrer-policy", "no-referrer");
      }
      return reply.header("cache-control", "no-cache").type("text/html").sendFile("index.html");
    }
    return reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail });
  });
}
