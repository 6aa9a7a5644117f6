import { createHmac, createSecretKey, type KeyObject, webcrypto } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS, ROLES, type Role } from "@app/shared";
import { errors, jwtVerify } from "jose";
import { z } from "zod";

export interface SessionUser {
  id: number;
  roles: Role[];
  /** the account's session version the token was issued under (see `SessionStates`) */
  sessionVersion: number;
}

const ALGORITHM = "HS256";
const ClaimsSchema = z.object({
  sub: z.string().regex(/^\d+$/),
  roles: z.array(z.enum(ROLES)),
  sv: z.number().int().nonnegative(),
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

/** The token's header, the same for every token. */
const HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: "JWT" })).toString("base64url");

/** The secret as a KeyObject for node:crypto's HMAC, made once per secret. */
const signingKeys = new WeakMap<Uint8Array, KeyObject>();
function signingKey(secret: Uint8Array): KeyObject {
  let key = signingKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    signingKeys.set(secret, key);
  }
  return key;
}

/**
 * A short-lived signed access token; roles travel in it so role checks need no database round trip. The
 * token is exactly what jose's `SignJWT` makes (access-token.test.ts compares them), signed with
 * node:crypto's HMAC in this thread: WebCrypto's `sign` (jose's way) hands each token to libuv's pool,
 * where it waits behind the password hashes of a congress morning and costs a round trip between
 * threads (docs/performance.md, "Login budget"). Tokens are verified with jose.
 */
export async function signAccessToken(
  user: SessionUser,
  key: Uint8Array,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = now + ACCESS_TOKEN_LIFETIME_MS;
  const claims = {
    roles: user.roles,
    sv: user.sessionVersion,
    sub: String(user.id),
    iat: Math.floor(now / 1000),
    exp: Math.floor(expiresAt / 1000),
  };
  const signed = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const signature = createHmac("sha256", signingKey(key)).update(signed).digest("base64url");
  return { token: `${signed}.${signature}`, expiresAt };
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

/** The session of a valid token, or null for anything else (tampered, expired, other algorithm). */
export async function verifyAccessToken(token: string, key: Uint8Array): Promise<SessionUser | null> {
  const known = verified.get(key)?.get(token);
  if (known) {
    if (known.expiresAtSec > Date.now() / 1000) {
      return known.user;
    }
    verified.get(key)?.delete(token);
  }
  try {
    const { payload } = await jwtVerify(token, await hmacKey(key), { algorithms: [ALGORITHM] });
    const claims = ClaimsSchema.safeParse(payload);
    if (!claims.success || payload.exp === undefined) {
      return null;
    }
    const user = { id: Number(claims.data.sub), roles: claims.data.roles, sessionVersion: claims.data.sv };
    remember(key, token, user, payload.exp);
    return user;
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      return null;
    }
    throw error;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}
