import type { Db } from "@app/db";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { bearerToken, type SessionUser, verifyAccessToken } from "../auth/access-token";
import type { Env } from "../env";

/** What every procedure may use; created per request by `createContextFactory`. */
export interface Context {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  user: SessionUser | null;
  ip: string;
}

export interface AppDeps {
  db: Db;
  env: Env;
  jwtKey: Uint8Array;
}

export function createContextFactory(deps: AppDeps) {
  return async (req: FastifyRequest): Promise<Context> => {
    const token = bearerToken(req.headers.authorization);
    const user = token ? await verifyAccessToken(token, deps.jwtKey) : null;
    return { db: deps.db, env: deps.env, log: req.log, user, ip: req.ip };
  };
}
