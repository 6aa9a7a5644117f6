import type { inferRouterInputs } from "@trpc/server";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from "fastify";
import { AppError } from "../lib/app-error";
import type { AdminPage } from "../lib/paging";
import type { Context } from "../trpc/context";
import { type CallerRole, checkRole } from "../trpc/roles";
import { type AppRouter, createCaller } from "../trpc/router";

export type Caller = ReturnType<typeof createCaller>;

/**
 * The input of every procedure as its zod schema accepts it (ids, pages and flags as the strings a request
 * carries): what an adapter builds from a request. The procedure validates it, so a bad field answers
 * `{title, detail}` like any other refusal.
 */
export type RestInput = inferRouterInputs<AppRouter>;

/** What Fastify hands a route: path parameters are strings; a query value is a list when its key repeats. */
interface RestRequestTypes extends RouteGenericInterface {
  Params: Partial<Record<string, string>>;
  Querystring: Partial<Record<string, string | string[]>>;
}
export type RestRequest = FastifyRequest<RestRequestTypes>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** who may call a path under /api (checked by `checkDeclaredRole` before the body is read) */
    role?: CallerRole;
    /**
     * the service a path reads past the procedures (the streamed exports, the checkout's notifications);
     * the authorisation matrix names it in the path's row
     */
    service?: string;
  }
}

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** path below /api, as documented in the spec (the router ignores a trailing slash) */
  url: string;
  /** who may call it; checked before anything of the request is read (see `registerRestRoutes`) */
  role: CallerRole;
  /** maps the request onto a tRPC procedure; the answer is sent as JSON */
  handler: (caller: Caller, req: RestRequest, reply: FastifyReply, ctx: Context) => Promise<unknown>;
  status?: number;
  /** a streamed export calls this service instead of a procedure; named in the authorisation matrix */
  service?: string;
}

/** A query value; of a repeated key the first (as the Digistore24 notifications are read). */
export function queryValue(req: RestRequest, name: string): string | undefined {
  const value = req.query[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A page of an admin table as the spec's "list of …": the page's rows are the body; how many rows the
 * filter finds is the header `X-Total-Count` (a lower bound when `X-Total-Exact` is false, see
 * `boundedCount`); `?page=N` pages by `ADMIN_PAGE_SIZE` (ADR 0087).
 */
export function pageAsList<Item>(reply: FastifyReply, page: AdminPage<Item>): Item[] {
  reply.header("x-total-count", String(page.total)).header("x-total-exact", String(page.totalExact));
  return page.items;
}

type CreateContext = (req: FastifyRequest, reply: FastifyReply) => Promise<Context>;

/**
 * The one role check of the REST paths: the role the route declares, checked in `onRequest`, before
 * Fastify reads the body (a JSON or form body is parsed before `preHandler`), so nobody but that role gets
 * a form parsed or an upload read. A path under /api that declares no role is refused to everybody (and
 * the authorisation matrix fails). The context it builds is the one the handler uses. Public paths do not
 * get this hook (`registerRestRoutes`): they have nothing to check.
 */
export function roleCheck(createContext: CreateContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const role = req.routeOptions.config.role;
    if (role === undefined) {
      throw new AppError("INTERNAL", `${req.method} ${req.routeOptions.url} declares no role`);
    }
    await checkRole(await createContext(req, reply), role);
  };
}

/**
 * REST adapters for the documented `/api/...` paths. Each calls the same tRPC procedure as the web
 * app, so access checks and rules live in one place; errors become `{title, detail}` (see errors.ts).
 */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  createContext: CreateContext,
): void {
  const onRequest = roleCheck(createContext);
  for (const route of routes) {
    const handler = async (req: RestRequest, reply: FastifyReply) => {
      const ctx = await createContext(req, reply);
      const result = await route.handler(createCaller(ctx), req, reply, ctx);
      return reply.status(route.status ?? 200).send(result ?? null);
    };
    app.route<RestRequestTypes>({
      method: route.method,
      url: `/api${route.url}`,
      config: { role: route.role, service: route.service },
      // a public path has nothing to check: no hook, so a sign-in of the opening rush waits for no promise
      ...(route.role !== "public" && { onRequest }),
      handler,
    });
  }
}
