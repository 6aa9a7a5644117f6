import type { Db } from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import type { SessionStates } from "../credentials/session-states";
import type { Env } from "../env";
import type { MailDispatcher } from "../mail-delivery/outbox";

/** The current time, passed in so a test can fix it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * What every service may use (ADR 0072). Services take `(deps, input)`: `deps` is this (or the part of
 * it the service needs), `input` what the request supplies (the signed-in user's id, the parsed fields).
 * The tRPC `Context` is a `ServiceDeps`, so a procedure passes its `ctx` as it is; `log` is the request's.
 */
export interface ServiceDeps {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  mail: MailDispatcher;
  clock: Clock;
}

/** The session services' app-wide parts beside `ServiceDeps`: the signing key and the live-session registry. */
export interface SessionDeps extends ServiceDeps {
  jwtKey: Uint8Array;
  sessionStates: SessionStates;
}

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, maxAgeSeconds: number): void;
  clear(name: string): void;
}

/**
 * The channel a request came through: the client's address (rate-limit keys) and its cookie jar (known
 * device, refresh token). Services that limit by client or set cookies take it with their deps, like `log`
 * (ADR 0072): the sign-in path passes its `ctx` without building an object per request.
 */
export interface ClientIo {
  /** the client as the per-IP limits count it: an IPv4 address, an IPv6 /64 (`clientKey`, ADR 0090) */
  ip: string;
  cookies: CookieJar;
}
