import type { Db } from "@app/db";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, type SessionUser, verifyAccessToken } from "../auth/access-token";
import type { SessionStates } from "../auth/session-states";
import type { Env } from "../env";
import type { MailDispatcher } from "../mail/outbox";
import type { OverviewCache } from "../services/visitor/overview-cache";

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, maxAgeSeconds: number): void;
  clear(name: string): void;
}

/** What every procedure may use; created per request by `createContextFactory`. */
export interface Context {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  user: SessionUser | null;
  ip: string;
  jwtKey: Uint8Array;
  mail: MailDispatcher;
  cookies: CookieJar;
  /** the visitors' kept overview answers of this instance; a visitor's own writes drop theirs */
  overviewCache: OverviewCache;
  /** whether access tokens still stand for live sessions; what ends sessions drops its account here */
  sessionStates: SessionStates;
}

export interface AppDeps {
  db: Db;
  env: Env;
  jwtKey: Uint8Array;
  mail: MailDispatcher;
  overviewCache: OverviewCache;
  sessionStates: SessionStates;
}

function cookieJar(req: FastifyRequest, reply: FastifyReply, secure: boolean): CookieJar {
  const options = { httpOnly: true, secure, sameSite: "strict", path: "/" } as const;
  return {
    get: (name) => req.cookies[name],
    set: (name, value, maxAgeSeconds) => {
      reply.setCookie(name, value, { ...options, maxAge: maxAgeSeconds });
    },
    clear: (name) => {
      reply.clearCookie(name, options);
    },
  };
}

export function createContextFactory(deps: AppDeps) {
  const secureCookies = deps.env.NODE_ENV === "production" || deps.env.APP_URL.startsWith("https:");
  return async (req: FastifyRequest, reply: FastifyReply): Promise<Context> => {
    const token = bearerToken(req.headers.authorization);
    const signed = token ? await verifyAccessToken(token, deps.jwtKey) : null;
    // a signed token whose session has ended since (password reset, two-factor switch, deactivation,
    // deletion) counts as no token
    const user = signed && (await deps.sessionStates.valid(signed)) ? signed : null;
    return {
      db: deps.db,
      env: deps.env,
      jwtKey: deps.jwtKey,
      mail: deps.mail,
      overviewCache: deps.overviewCache,
      sessionStates: deps.sessionStates,
      log: req.log,
      user,
      ip: req.ip,
      cookies: cookieJar(req, reply, secureCookies),
    };
  };
}
