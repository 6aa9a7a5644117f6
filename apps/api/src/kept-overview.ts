import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import superjson from "superjson";
import { dropAfterWrite, keptOverviewText, type OverviewCache } from "./services/visitor/overview-cache";
import type { Context } from "./trpc/context";

/** The overview's procedure (`congress.getOverview`) at tRPC's endpoint. */
const OVERVIEW_URL = "/trpc/congress.getOverview";

/** tRPC's answer to one call that succeeded, with the app's transformer (superjson), as its adapter writes it. */
export const trpcResult = (data: unknown): string =>
  JSON.stringify({ result: { data: superjson.serialize(data) } });

/**
 * Whether `url` asks for the overview alone: the plain call, or a batch of that one call (what the web
 * app's link sends). null for anything else, which tRPC's adapter answers as always.
 */
export function loneOverviewCall(url: string): { batch: boolean } | null {
  if (!url.startsWith(OVERVIEW_URL)) {
    return null;
  }
  const rest = url.slice(OVERVIEW_URL.length);
  if (rest === "") {
    return { batch: false };
  }
  if (!rest.startsWith("?")) {
    return null;
  }
  const query = new URLSearchParams(rest.slice(1));
  const input = query.get("input");
  if (query.get("batch") !== "1" || input === null || [...query.keys()].length !== 2) {
    return null;
  }
  try {
    const inputs: unknown = JSON.parse(input);
    const single =
      typeof inputs === "object" &&
      inputs !== null &&
      Object.keys(inputs).join() === "0" &&
      !Array.isArray(inputs);
    return single ? { batch: true } : null;
  } catch {
    return null;
  }
}

interface KeptOverviewOptions {
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>;
  /** the instance's kept overviews (the one every context carries), which writes drop */
  cache: OverviewCache;
}

/**
 * The one place the kept overview (`OverviewCache`, services/visitor/overview-cache.ts) meets HTTP (ADR 0148):
 * - a kept answer goes out as it was written the first time, before tRPC's adapter builds a request and a
 *   response around it; everything else, a first overview and every error included, is tRPC's (the same
 *   context, made once per request, and the same procedure);
 * - a signed-in write (tRPC or REST, refused or not) drops kept answers before its own answer goes out.
 */
export function registerKeptOverview(app: FastifyInstance, options: KeptOverviewOptions): void {
  const { createContext, cache } = options;
  app.addHook("onRequest", async (req, reply) => {
    // `trpc-accept` asks for tRPC's streamed answer
    const call = req.method === "GET" && !req.headers["trpc-accept"] ? loneOverviewCall(req.url) : null;
    if (!call) {
      return;
    }
    const ctx = await createContext(req, reply);
    const text = ctx.user ? keptOverviewText(ctx, ctx.user.id, trpcResult) : undefined;
    if (text !== undefined) {
      return reply
        .header("vary", "trpc-accept, accept")
        .type("application/json")
        .send(call.batch ? `[${text}]` : text);
    }
  });
  app.addHook("onSend", (req, _reply, payload, done) => {
    if (req.sessionUser && req.method !== "GET" && req.method !== "HEAD") {
      dropAfterWrite(cache, req.sessionUser);
    }
    done(null, payload);
  });
}
