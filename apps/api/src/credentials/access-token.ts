import { createHmac, createSecretKey, type KeyObject, timingSafeEqual, webcrypto } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS, ROLES, type Role } from "@app/shared";
import { errors, type JWTPayload, jwtVerify } from "jose";
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

/** The protected header of every token we sign (the object jose's `SignJWT` serialises as given). */
export const OWN_HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: "JWT" })).toString("base64url");

/** The secret as a KeyObject for node:crypto's HMAC, made once per secret. */
const hmacKeys = new WeakMap<Uint8Array, KeyObject>();
function hmacKeyObject(secret: Uint8Array): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * A short-lived signed access token; roles travel in it so role checks need no database round trip. The
 * token is exactly what jose's `SignJWT` makes (access-token.test.ts compares them), signed with
 * node:crypto's HMAC in this thread: WebCrypto's `sign` (jose's way) hands each token to libuv's pool,
 * where it waits behind the password hashes of a congress morning and costs a round trip between
 * threads (docs/performance.md, "Login budget").
 */
export async function signAccessToken(
  user: SessionUser,
  key: Uint8Array,
  /** the clock's time in ms (the services' clock, ADR 0099) */
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = now + ACCESS_TOKEN_LIFETIME_MS;
  const claims = {
    roles: user.roles,
    sv: user.sessionVersion,
    sid: user.sessionId,
    sub: String(user.id),
    iat: Math.floor(now / 1000),
    exp: Math.floor(expiresAt / 1000),
  };
  const signed = `${OWN_HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const signature = createHmac("sha256", hmacKeyObject(key)).update(signed).digest("base64url");
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

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
/** an HS256 signature: 32 bytes, 43 characters of base64url without padding */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The payload of a token exactly as this module signs it, checked with a synchronous HMAC, or undefined
 * for anything else, which jose then decides. jose's HMAC check goes through WebCrypto, a job on
 * libuv's pool and back per token: about five times the CPU, and a visitor's first request presents a
 * token never seen. Only what jose accepts too is accepted here (our header byte for byte, a valid
 * signature over the same bytes, a JSON object whose `exp` lies ahead and whose `nbf` and `iat`, when
 * present, are as jose requires); every refusal is left to jose, so refusing stays exactly jose's.
 * access-token.test.ts compares both on valid, tampered, expired and odd tokens.
 */
export function verifyOwnToken(token: string, key: Uint8Array, nowSec: number) {
  const parts = token.split(".");
  const [header, payload, signature] = parts;
  if (
    parts.length !== 3 ||
    header !== OWN_HEADER ||
    payload === undefined ||
    !BASE64URL.test(payload) ||
    signature === undefined ||
    !SIGNATURE.test(signature)
  ) {
    return undefined;
  }
  const expected = createHmac("sha256", hmacKeyObject(key)).update(`${header}.${payload}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, "base64url"))) {
    return undefined;
  }
  let claims: unknown;
  try {
    claims = JSON.parse(strictUtf8.decode(Buffer.from(payload, "base64url")));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    return undefined;
  }
  const { exp, nbf, iat } = claims as JWTPayload;
  if (
    typeof exp !== "number" ||
    exp <= nowSec ||
    (nbf !== undefined && (typeof nbf !== "number" || nbf > nowSec)) ||
    (iat !== undefined && typeof iat !== "number")
  ) {
    return undefined;
  }
  return claims as JWTPayload;
}

/** jose's verification, the reference `verifyOwnToken` must agree with (exported for its test). */
export async function verifyWithJose(
  token: string,
  key: Uint8Array,
  now: number,
): Promise<JWTPayload | null> {
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
  const payload =
    verifyOwnToken(token, key, Math.floor(now / 1000)) ?? (await verifyWithJose(token, key, now));
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
