import { webcrypto } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS, ROLES, type Role } from "@app/shared";
import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { z } from "zod";

export interface SessionUser {
  id: number;
  roles: Role[];
  /** the account's session version the token was issued under (see `SessionStates`) */
  sessionVersion: number;
  /** the session (refresh-token family) it belongs to: ended by "Abmelden" (see `SessionStates`) */
  sessionId: string;
}

const ALGORITHM = "HS256";
const ClaimsSchema = z.object({
  sub: z.string().regex(/^\d+$/),
  roles: z.array(z.enum(ROLES)),
  sv: z.number().int().nonnegative(),
  sid: z.string().min(1).max(100),
});

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** The secret as an HMAC key, imported once per secret (jose imports a raw key again on every call). */
const imported = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = imported.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    imported.set(secret, key);
  }
  return key;
}

/**
 * A short-lived signed access token (jose's `SignJWT`, HS256); roles travel in it so role checks need no
 * database round trip.
 */
export async function signAccessToken(
  user: SessionUser,
  key: Uint8Array,
  /** the clock's time in ms (the services' clock, ADR 0099) */
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = now + ACCESS_TOKEN_LIFETIME_MS;
  const token = await new SignJWT({ roles: user.roles, sv: user.sessionVersion, sid: user.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(String(user.id))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(await hmacKey(key));
  return { token, expiresAt };
}

/**
 * Tokens verified before, per key, until they expire: a visitor refreshing the overview presents the same
 * token again and again, and checking the signature each time is a good part of a cheap request. Only the
 * exact same string hits (any change misses and is verified); bounded, the oldest entries go first.
 */
const verified = new WeakMap<Uint8Array, Map<string, { user: SessionUser; expiresAtSec: number }>>();
const VERIFIED_MAX = 20_000;

function remember(key: Uint8Array, token: string, user: SessionUser, expiresAtSec: number): void {
  let cache = verified.get(key);
  if (!cache) {
    cache = new Map();
    verified.set(key, cache);
  }
  if (cache.size >= VERIFIED_MAX) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) {
      cache.delete(oldest);
    }
  }
  cache.set(token, { user, expiresAtSec });
}

/** jose's verification at `now` (the clock's time in ms): the claims, or null for any refused token. */
async function verifyWithJose(token: string, key: Uint8Array, now: number): Promise<JWTPayload | null> {
  try {
    const options = { algorithms: [ALGORITHM], currentDate: new Date(now) };
    return (await jwtVerify(token, await hmacKey(key), options)).payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      return null;
    }
    throw error;
  }
}

/**
 * The session of a valid token at `now` (the clock's time in ms), or null for anything else (tampered,
 * expired, other algorithm).
 */
export async function verifyAccessToken(
  token: string,
  key: Uint8Array,
  now: number,
): Promise<SessionUser | null> {
  const known = verified.get(key)?.get(token);
  if (known) {
    if (known.expiresAtSec > now / 1000) {
      return known.user;
    }
    verified.get(key)?.delete(token);
  }
  const payload = await verifyWithJose(token, key, now);
  const claims = ClaimsSchema.safeParse(payload);
  if (!payload || !claims.success || payload.exp === undefined) {
    return null;
  }
  const user = {
    id: Number(claims.data.sub),
    roles: claims.data.roles,
    sessionVersion: claims.data.sv,
    sessionId: claims.data.sid,
  };
  remember(key, token, user, payload.exp);
  return user;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}
