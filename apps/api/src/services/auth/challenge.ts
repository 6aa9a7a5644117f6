import { createHmac, randomUUID } from "node:crypto";
import { TWO_FACTOR_CHALLENGE_MS } from "@app/shared";
import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { type Counter, claimOnce } from "../../lib/rate-limit";

/** What the password step of an account with two-factor login answers instead of a session. */
export interface TwoFactorChallenge {
  twoFactorRequired: true;
  /** signed, valid for five minutes; the second step presents it with a code */
  challenge: string;
  /** epoch milliseconds */
  expiresAt: number;
}

const ALGORITHM = "HS256";
const PURPOSE = "two-factor-login";
const ClaimsSchema = z.object({
  sub: z.string().regex(/^\d+$/),
  purpose: z.literal(PURPOSE),
  sv: z.number().int().nonnegative(),
  jti: z.string().uuid(),
});

/**
 * Challenges are signed with a key derived from the access-token key: a challenge can never pass as an
 * access token (or the other way round), whatever claims either carries.
 */
const derived = new WeakMap<Uint8Array, Uint8Array>();
function challengeKey(jwtKey: Uint8Array): Uint8Array {
  let key = derived.get(jwtKey);
  if (!key) {
    key = new Uint8Array(createHmac("sha256", jwtKey).update(PURPOSE).digest());
    derived.set(jwtKey, key);
  }
  return key;
}

/**
 * A challenge is bound to the account's session version (a new password or a two-factor switch in between
 * voids it) and has an id, so it is redeemed once (`spendChallenge`).
 */
export async function signChallenge(
  user: { id: number; sessionVersion: number },
  jwtKey: Uint8Array,
  at: Date,
): Promise<TwoFactorChallenge> {
  const now = at.getTime();
  const expiresAt = now + TWO_FACTOR_CHALLENGE_MS;
  const challenge = await new SignJWT({ purpose: PURPOSE, sv: user.sessionVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(String(user.id))
    .setJti(randomUUID())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(challengeKey(jwtKey));
  return { twoFactorRequired: true, challenge, expiresAt };
}

export interface ChallengeClaims {
  id: string;
  userId: number;
  sessionVersion: number;
}

/** The claims of a valid, unexpired challenge, or null. */
export async function readChallenge(
  challenge: string,
  jwtKey: Uint8Array,
  now: Date,
): Promise<ChallengeClaims | null> {
  try {
    const { payload } = await jwtVerify(challenge, challengeKey(jwtKey), {
      algorithms: [ALGORITHM],
      currentDate: now,
    });
    const claims = ClaimsSchema.safeParse(payload);
    if (!claims.success || payload.exp === undefined) {
      return null;
    }
    return { id: claims.data.jti, userId: Number(claims.data.sub), sessionVersion: claims.data.sv };
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      return null;
    }
    throw error;
  }
}

/**
 * Marks the challenge as redeemed, atomically; false when it was redeemed before. The marker lives in
 * `rate_limits` like the last used TOTP step (totp.ts) and goes with the retention job long after the
 * challenge has expired.
 */
export function spendChallenge(counter: Counter, claims: ChallengeClaims): Promise<boolean> {
  return claimOnce(counter, `two-factor-challenge:${claims.id}`);
}
