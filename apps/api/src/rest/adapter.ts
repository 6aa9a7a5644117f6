import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../trpc/context";
import { createCaller } from "../trpc/router";

export type Caller = ReturnType<typeof createCaller>;

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** path below /api, as documented in the spec (the router ignores a trailing slash) */
  url: string;
  /** maps the request onto a tRPC procedure; the answer is sent as JSON */
  handler: (caller: Caller, req: FastifyRequest, reply: FastifyReply, ctx: Context) => Promise<unknown>;
  status?: number;
}

/**
 * REST adapters for the documented `/api/...` paths. Each calls the same tRPC procedure as the web
 * app, so access checks and rules live in one place; errors become `{title, detail}` (see errors.ts).
 */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>,
): void {
  for (const route of routes) {
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const ctx = await createContext(req, reply);
      const result = await route.handler(createCaller(ctx), req, reply, ctx);
      return reply.status(route.status ?? 200).send(result ?? null);
    };
    app.route({ method: route.method, url: `/api${route.url}`, handler });
  }
}
