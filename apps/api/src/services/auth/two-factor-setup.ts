import { randomUUID } from "node:crypto";
import { schema } from "@app/db";
import { type AuditAction, TWO_FACTOR_MSG } from "@app/shared";
import { and, count, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { AppError } from "../../lib/app-error";
import { LIMITS, limitedAttempt } from "../../lib/rate-limit";
import { sessionAccount } from "../account";
import { type AuditChanges, type AuditEntry, adminActor, recordAudit } from "../admin/audit";
import type { SessionDeps } from "../deps";
import { endAllSessions, issueSession, type Session } from "./session";
import {
  acceptSecondFactor,
  acceptTotp,
  newRecoveryCodes,
  newTotpSecret,
  storeRecoveryCodes,
  totpFor,
} from "./totp";

type Ctx = Pick<SessionDeps, "db" | "jwtKey" | "sessionStates" | "clock">;
/** the signed-in admin's id and a code of the authenticator app (or a recovery code) */
type TwoFactorCodeInput = { userId: number; code: string };
const { users, recoveryCodes } = schema;

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(ctx: Pick<Ctx, "db">, userId: number): Promise<TwoFactorStatus> {
  const [[user], [codes]] = await Promise.all([
    ctx.db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId)),
    ctx.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  ]);
  const enabledAt = user?.enabledAt ?? null;
  return { enabled: enabledAt !== null, enabledAt, recoveryCodesLeft: enabledAt ? (codes?.n ?? 0) : 0 };
}

async function account(ctx: Pick<Ctx, "db">, userId: number) {
  const [user] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      totpSecret: users.totpSecret,
      enabledAt: users.totpEnabledAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) {
    throw new AppError("NOT_FOUND", `user ${userId} missing`);
  }
  return user;
}

/**
 * Starts (or restarts) the setup: a new secret is stored, not yet active. The QR code is an SVG rendered
 * here, so the web app needs no QR library and shows it as an image.
 */
export async function beginTwoFactorSetup(ctx: Pick<Ctx, "db">, userId: number) {
  const user = await account(ctx, userId);
  if (user.enabledAt) {
    throw new AppError("CONFLICT", "two-factor already enabled", TWO_FACTOR_MSG.alreadyEnabled);
  }
  const secret = newTotpSecret();
  await ctx.db
    .update(users)
    .set({ totpSecret: secret })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)));
  const uri = totpFor(secret, user.email).toString();
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** Wrong codes of the setup and of switching off count per account, like wrong passwords. */
async function limited<T>(ctx: Ctx, userId: number, attempt: () => Promise<T | null>): Promise<T> {
  const result = await limitedAttempt(
    ctx,
    { before: [[`two-factor:account:${userId}`, LIMITS.ownAccountCheck]] },
    attempt,
    (r) => r !== null,
  );
  if (result === null) {
    throw new AppError(
      "BAD_REQUEST",
      "two-factor code refused",
      TWO_FACTOR_MSG.codeInvalid,
      TWO_FACTOR_MSG.codeInvalidTitle,
    );
  }
  return result;
}

/**
 * Switching two-factor login on or off ends every session of the account (a session that began with the
 * password alone must not outlive the switch on, a stolen one not the switch off); the browser that made
 * the switch gets a new session at once.
 */
async function sessionAfterSwitch(ctx: Ctx, userId: number): Promise<Session> {
  ctx.sessionStates.drop([userId]);
  const { profile, sessionVersion } = await sessionAccount(ctx.db, userId);
  return issueSession(ctx, profile, sessionVersion, randomUUID());
}

/** An entry on the admin's own account, by the admin (never the secret or a code). */
const ownAccountEntry = (userId: number, action: AuditAction, changes: AuditChanges = {}): AuditEntry => ({
  actor: adminActor(userId),
  action,
  entity: "user",
  entityId: userId,
  changes,
});

/** Activates the stored secret with a current code of it and hands out the recovery codes, once. */
export async function enableTwoFactor(
  ctx: Ctx,
  { userId, code }: TwoFactorCodeInput,
): Promise<{ recoveryCodes: string[]; session: Session }> {
  const user = await account(ctx, userId);
  if (user.enabledAt) {
    throw new AppError("CONFLICT", "two-factor already enabled", TWO_FACTOR_MSG.alreadyEnabled);
  }
  const secret = user.totpSecret;
  if (!secret) {
    throw new AppError("BAD_REQUEST", "two-factor setup not started", TWO_FACTOR_MSG.setupNotStarted);
  }
  return limited(ctx, userId, async () => {
    if (!(await acceptTotp(ctx, userId, secret, code))) {
      return null;
    }
    const codes = newRecoveryCodes();
    const now = ctx.clock.now();
    await ctx.db.transaction(async (tx) => {
      // the secret must still be the one the code was checked against (a second setup tab may have replaced it)
      const [enabled] = await tx
        .update(users)
        .set({ totpEnabledAt: now })
        .where(and(eq(users.id, userId), eq(users.totpSecret, secret), isNull(users.totpEnabledAt)))
        .returning({ id: users.id });
      if (!enabled) {
        throw new AppError("CONFLICT", "two-factor secret changed", TWO_FACTOR_MSG.setupNotStarted);
      }
      await storeRecoveryCodes(tx, userId, codes);
      await endAllSessions(tx, userId, now);
      await recordAudit(tx, ownAccountEntry(userId, "user.two-factor-on", { twoFactor: [false, true] }));
    });
    return { recoveryCodes: codes, session: await sessionAfterSwitch(ctx, userId) };
  });
}

/**
 * Ten new recovery codes in place of all earlier ones (used up, or noted somewhere unsafe). Takes a current
 * code of the app: whoever has only the recovery codes left switches two-factor login off and sets it up
 * again instead.
 */
export async function renewRecoveryCodes(
  ctx: Ctx,
  { userId, code }: TwoFactorCodeInput,
): Promise<{ recoveryCodes: string[] }> {
  const user = await account(ctx, userId);
  const secret = user.totpSecret;
  if (!user.enabledAt || !secret) {
    throw new AppError("BAD_REQUEST", "two-factor not enabled", TWO_FACTOR_MSG.notEnabled);
  }
  return limited(ctx, userId, async () => {
    if (!(await acceptTotp(ctx, userId, secret, code))) {
      return null;
    }
    const codes = newRecoveryCodes();
    await ctx.db.transaction(async (tx) => {
      await storeRecoveryCodes(tx, userId, codes);
      await recordAudit(tx, ownAccountEntry(userId, "user.recovery-codes"));
    });
    return { recoveryCodes: codes };
  });
}

/** Switches two-factor login off; needs a current code (or an unused recovery code, for a lost phone). */
export async function disableTwoFactor(
  ctx: Ctx,
  { userId, code }: TwoFactorCodeInput,
): Promise<{ detail: string; session: Session }> {
  const user = await account(ctx, userId);
  if (!user.enabledAt) {
    throw new AppError("BAD_REQUEST", "two-factor not enabled", TWO_FACTOR_MSG.notEnabled);
  }
  return limited(ctx, userId, async () => {
    if (!(await acceptSecondFactor(ctx, user, code))) {
      return null;
    }
    await ctx.db.transaction(async (tx) => {
      await tx.update(users).set({ totpSecret: null, totpEnabledAt: null }).where(eq(users.id, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await endAllSessions(tx, userId, ctx.clock.now());
      await recordAudit(tx, ownAccountEntry(userId, "user.two-factor-off", { twoFactor: [true, false] }));
    });
    return { detail: TWO_FACTOR_MSG.disabled, session: await sessionAfterSwitch(ctx, userId) };
  });
}
