import type { Db } from "@app/db";
import { secretKey } from "../credentials/access-token";
import { type CookieAttributes, cookieAttributes } from "../credentials/cookies";
import type { Env } from "../env";
import { startSession, withCookie } from "../services/auth/session";
import { findUserByEmail } from "../services/auth/user-rows";
import { type Clock, type CookieJar, systemClock } from "../services/deps";

/** A cookie as the answer to a login sets it. */
export interface MintedCookie extends CookieAttributes {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

export interface MintDeps {
  db: Db;
  /** what the API runs with: its key signs the known-device mark, its mode and address decide `Secure` */
  env: Pick<Env, "JWT_SECRET" | "NODE_ENV" | "APP_URL">;
  clock?: Clock;
}

/**
 * A signed-in browser without the login form, for tests that need one but are not about the login (the
 * end-to-end `signIn` fixture, apps/web/e2e/fixtures.ts): the session the login's last step starts, by
 * the same `startSession` (a new refresh-token family, the browser remembered as a known device of the
 * account), returned as the cookies the login's answer sets. For an admin with two-factor login this is
 * the session after the code, which is the same as any other: renewing it never asks for a code (ADR 0047).
 * The browser gets its access token by the normal renewal, as after any expiry. No password is checked, so
 * no argon2id verification runs; an account the login would refuse (deactivated, unconfirmed) gets none.
 */
export async function mintSession(deps: MintDeps, email: string): Promise<MintedCookie[]> {
  const user = await findUserByEmail(deps.db, email);
  if (!user?.active) {
    throw new Error(`no active account ${email}: the login would start no session for it`);
  }
  const attributes = cookieAttributes(deps.env);
  const set = new Map<string, MintedCookie>();
  // a fresh browser: it brings no cookie
  const cookies: CookieJar = {
    get: () => undefined,
    set: (name, value, maxAgeSeconds) => set.set(name, { name, value, maxAgeSeconds, ...attributes }),
    clear: (name) => set.delete(name),
  };
  const ctx = {
    db: deps.db,
    jwtKey: secretKey(deps.env.JWT_SECRET),
    clock: deps.clock ?? systemClock,
    cookies,
  };
  withCookie(ctx, await startSession(ctx, user));
  return [...set.values()];
}
