import type { Db } from "@app/db";
// its types add `parseCookie`, `setCookie` and `clearCookie` to Fastify (registered in app.ts)
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, type SessionUser, verifyAccessToken } from "../credentials/access-token";
import { type CookieAttributes, cookieAttributes } from "../credentials/cookies";
import type { SessionStates } from "../credentials/session-states";
import type { Env } from "../env";
import { clientKey } from "../lib/client-address";
import type { MailDispatcher } from "../mail-delivery/outbox";
import { type ClientIo, type Clock, type CookieJar, type SessionDeps, systemClock } from "../services/deps";
import type { OverviewCache } from "../services/visitor/overview-cache";

/**
 * What every procedure may use; created per request by `createContextFactory`. It is the services' deps
 * (`SessionDeps`, `ClientIo`), so a procedure hands its `ctx` to a service as it is (ADR 0072).
 */
export interface Context extends SessionDeps, ClientIo {
  user: SessionUser | null;
  /** the visitors' kept overview answers of this instance; a visitor's own writes drop theirs */
  overviewCache: OverviewCache;
}

export interface AppDeps {
  db: Db;
  env: Env;
  jwtKey: Uint8Array;
  mail: MailDispatcher;
  overviewCache: OverviewCache;
  sessionStates: SessionStates;
  /** the current time; the system clock unless a test fixes it */
  clock?: Clock;
}

/**
 * The request's cookies through @fastify/cookie (registered without its parsing hook in app.ts): read when
 * first asked for, since only sign-in, renewal and sign-out touch cookies; setting a name again replaces it.
 */
export function cookieJar(req: FastifyRequest, reply: FastifyReply, attributes: CookieAttributes): CookieJar {
  let received: Record<string, string | undefined> | undefined;
  return {
    get: (name) => {
      received ??= req.headers.cookie ? req.server.parseCookie(req.headers.cookie) : {};
      return received[name];
    },
    set: (name, value, maxAgeSeconds) => {
      reply.setCookie(name, value, { ...attributes, maxAge: maxAgeSeconds });
    },
    clear: (name) => {
      reply.clearCookie(name, attributes);
    },
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** the request's signed-in user, once its context was made (null: none, or an ended session) */
    sessionUser?: SessionUser | null;
  }
}

/**
 * The context of a request, made once per request whoever asks first (a hook before tRPC's adapter, a REST
 * path's role check, then its handler) and handed to every later asker.
 */
export function createContextFactory(deps: AppDeps) {
  const clock = deps.clock ?? systemClock;
  const attributes = cookieAttributes(deps.env);
  const made = new WeakMap<FastifyRequest, Promise<Context>>();
  const make = async (req: FastifyRequest, reply: FastifyReply): Promise<Context> => {
    const token = bearerToken(req.headers.authorization);
    const signed = token ? await verifyAccessToken(token, deps.jwtKey, clock.now().getTime()) : null;
    // a signed token whose session has ended since (password reset, two-factor switch, deactivation,
    // deletion, logout) counts as no token
    const user = signed && (await deps.sessionStates.valid(signed)) ? signed : null;
    req.sessionUser = user;
    return {
      db: deps.db,
      env: deps.env,
      jwtKey: deps.jwtKey,
      mail: deps.mail,
      overviewCache: deps.overviewCache,
      sessionStates: deps.sessionStates,
      clock,
      log: req.log,
      user,
      // IPv4 per address, IPv6 per /64 (ADR 0090): what the per-IP limits count
      ip: clientKey(req.ip),
      cookies: cookieJar(req, reply, attributes),
    };
  };
  return (req: FastifyRequest, reply: FastifyReply): Promise<Context> => {
    let context = made.get(req);
    if (!context) {
      context = make(req, reply);
      made.set(req, context);
    }
    return context;
  };
}
