import { randomInt } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import { RECOVERY_CODE_COUNT } from "@app/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { hashToken } from "../../lib/tokens";
import type { ServiceDeps } from "../deps";

type Deps = Pick<ServiceDeps, "db" | "clock">;

/** What an authenticator app shows next to the account (otpauth:// issuer). */
export const TOTP_ISSUER = "Kongress-Plattform";
const PERIOD_SECONDS = 30;
/** codes of the step before and after are accepted too (clock drift, typing time) */
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secret: string, label = ""): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
  });
}

/** The time step a six-digit code belongs to, or null when it matches none of the accepted steps. */
export function matchingStep(secret: string, code: string, now: number): number | null {
  const digits = code.replace(/[\s-]/g, "");
  if (!/^\d{6}$/.test(digits)) {
    return null;
  }
  const totp = totpFor(secret);
  const delta = totp.validate({ token: digits, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/**
 * Records `step` as the account's last used time step, atomically and only if it is later than the one
 * recorded: a code (or an earlier one still in the window) cannot be used twice. The marker lives in
 * `rate_limits` (key, time, integer), which the retention job empties long after a step has expired.
 */
export async function claimStep(db: DbOrTx, userId: number, step: number, now: Date): Promise<boolean> {
  const { rateLimits } = schema;
  const rows = await db
    .insert(rateLimits)
    .values({ key: `totp:last-step:${userId}`, windowStart: now, hits: step })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { hits: sql`excluded.hits`, windowStart: now },
      setWhere: sql`${rateLimits.hits} < excluded.hits`,
    })
    .returning({ key: rateLimits.key });
  return rows.length === 1;
}

/** A valid, not yet used code of the account's current secret (TOTP only; recovery codes do not count). */
export async function acceptTotp(deps: Deps, userId: number, secret: string, code: string): Promise<boolean> {
  const now = deps.clock.now();
  const step = matchingStep(secret, code, now.getTime());
  return step !== null && (await claimStep(deps.db, userId, step, now));
}

// recovery codes: 10 characters of an alphabet without look-alikes (about 50 bits), shown as XXXXX-XXXXX
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

const canonical = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Replaces the account's recovery codes; only their SHA-256 is stored. */
export async function storeRecoveryCodes(db: DbOrTx, userId: number, codes: string[]): Promise<void> {
  const { recoveryCodes } = schema;
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashToken(canonical(code)) })));
}

/** Spends an unused recovery code of the account (atomically: two concurrent uses, one wins). */
export async function spendRecoveryCode(deps: Deps, userId: number, code: string): Promise<boolean> {
  const value = canonical(code);
  if (value.length !== 10) {
    return false;
  }
  const { recoveryCodes } = schema;
  const rows = await deps.db
    .update(recoveryCodes)
    .set({ usedAt: deps.clock.now() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashToken(value)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

/** A current TOTP code or an unused recovery code of an account with two-factor login. */
export async function acceptSecondFactor(
  deps: Deps,
  user: { id: number; totpSecret: string | null },
  code: string,
): Promise<boolean> {
  if (!user.totpSecret) {
    return false;
  }
  if (/^\d{6}$/.test(code.replace(/[\s-]/g, ""))) {
    return acceptTotp(deps, user.id, user.totpSecret, code);
  }
  return spendRecoveryCode(deps, user.id, code);
}
