import { createHmac, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { safeEqual } from "../lib/tokens";

/**
 * The cookie that marks a browser in which an account has signed in before (OWASP's "device cookie"). Its
 * sign-in attempts count only against itself, so the account's owner still signs in there while someone
 * elsewhere guesses the account's password into its limits (ADR 0059).
 * `<device id>.<user id>.<signature>`, signed with a key derived from the access-token key.
 */
export const KNOWN_DEVICE_COOKIE = "known_device";
export const KNOWN_DEVICE_LIFETIME_SECONDS = 365 * 24 * 60 * 60;

const PURPOSE = "known-device";
/** The derived key as a KeyObject, made once: a Buffer key is copied and checked again on every HMAC. */
const derived = new WeakMap<Uint8Array, KeyObject>();
function deviceKey(jwtKey: Uint8Array): KeyObject {
  let key = derived.get(jwtKey);
  if (!key) {
    key = createSecretKey(createHmac("sha256", jwtKey).update(PURPOSE).digest());
    derived.set(jwtKey, key);
  }
  return key;
}

const sign = (payload: string, jwtKey: Uint8Array) =>
  createHmac("sha256", deviceKey(jwtKey)).update(payload).digest("base64url");

export function newKnownDevice(userId: number, jwtKey: Uint8Array): string {
  const payload = `${randomBytes(16).toString("base64url")}.${userId}`;
  return `${payload}.${sign(payload, jwtKey)}`;
}

/** The device id and the account of a genuine cookie (its signature checked), else null. */
export function deviceClaimOf(
  cookie: string | undefined,
  jwtKey: Uint8Array,
): { deviceId: string; userId: number } | null {
  const match = cookie?.match(/^([A-Za-z0-9_-]{22})\.(\d{1,10})\.([A-Za-z0-9_-]{43})$/);
  if (!match) {
    return null;
  }
  const [, deviceId, id, signature] = match as unknown as [string, string, string, string];
  return safeEqual(signature, sign(`${deviceId}.${id}`, jwtKey)) ? { deviceId, userId: Number(id) } : null;
}

/** The device id when the cookie is genuine and was issued to `userId`, else null. */
export function knownDeviceOf(
  cookie: string | undefined,
  userId: number | undefined,
  jwtKey: Uint8Array,
): string | null {
  const claim = deviceClaimOf(cookie, jwtKey);
  return claim && userId !== undefined && claim.userId === userId ? claim.deviceId : null;
}
