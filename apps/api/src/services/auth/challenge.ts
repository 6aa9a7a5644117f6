import { createHmac } from "node:crypto";
import { TWO_FACTOR_CHALLENGE_MS } from "@app/shared";
import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { hashToken } from "../../lib/tokens";

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
  pw: z.string(),
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

/** Binds a challenge to the password it was earned with: a password change in between voids it. */
export const passwordMark = (passwordHash: string | null) => hashToken(passwordHash ?? "").slice(0, 16);

export async function signChallenge(
  user: { id: number; passwordHash: string | null },
  jwtKey: Uint8Array,
  now = Date.now(),
): Promise<TwoFactorChallenge> {
  const expiresAt = now + TWO_FACTOR_CHALLENGE_MS;
  const challenge = await new SignJWT({ purpose: PURPOSE, pw: passwordMark(user.passwordHash) })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(String(user.id))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(challengeKey(jwtKey));
  return { twoFactorRequired: true, challenge, expiresAt };
}

/** The account a valid, unexpired challenge was issued for and the mark of the password it was earned with. */
export async function readChallenge(
  challenge: string,
  jwtKey: Uint8Array,
): Promise<{ userId: number; passwordMark: string } | null> {
  try {
    const { payload } = await jwtVerify(challenge, challengeKey(jwtKey), { algorithms: [ALGORITHM] });
    const claims = ClaimsSchema.safeParse(payload);
    if (!claims.success || payload.exp === undefined) {
      return null;
    }
    return { userId: Number(claims.data.sub), passwordMark: claims.data.pw };
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      return null;
    }
    throw error;
  }
}
