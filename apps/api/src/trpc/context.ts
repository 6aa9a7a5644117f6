import type { Db } from "@app/db";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, type SessionUser, verifyAccessToken } from "../auth/access-token";
import type { SessionStates } from "../auth/session-states";
import type { Env } from "../env";
import type { MailDispatcher } from "../mail/outbox";
import { type OverviewReadAhead, readViewerState } from "../services/visitor/overview";
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
  /** the overview's viewer state, when the session check read it (`ContextOptions.overview`) */
  overviewReadAhead?: OverviewReadAhead;
}

export interface ContextOptions {
  /**
   * The request asks for the visitor's overview: a session state this instance does not keep is read by
   * the overview's own statement (it reads the account's row anyway) and handed to the procedure, one
   * round trip instead of two on a visitor's first overview. The check itself is the same. Whoever passes
   * this closes `overviewReadAhead.fill` once the request is answered (`OverviewCache.close`).
   */
  overview?: boolean;
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
  return async (req: FastifyRequest, reply: FastifyReply, options?: ContextOptions): Promise<Context> => {
    const token = bearerToken(req.headers.authorization);
    const signed = token ? await verifyAccessToken(token, deps.jwtKey) : null;
    let ahead: OverviewReadAhead | undefined;
    const readAhead = async (userId: number) => {
      if (ahead) {
        deps.overviewCache.close(ahead.fill);
      }
      // opened before the read: a change heard from now on keeps the answer built from it from being kept
      const fill = deps.overviewCache.open(userId);
      try {
        ahead = { state: await readViewerState(deps.db, userId), fill };
      } catch (error) {
        deps.overviewCache.close(fill);
        ahead = undefined;
        throw error;
      }
      return ahead.state;
    };
    // a signed token whose session has ended since (password reset, two-factor switch, deactivation,
    // deletion) counts as no token
    const user =
      signed && (await deps.sessionStates.valid(signed, options?.overview ? readAhead : undefined))
        ? signed
        : null;
    if (ahead && !user) {
      deps.overviewCache.close(ahead.fill);
      ahead = undefined;
    }
    return {
      overviewReadAhead: ahead,
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
