import { randomUUID } from "node:crypto";
import { schema } from "@app/db";
import { hashPassword, verifyPassword } from "@app/db/password";
import { MSG } from "@app/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { signAccessToken } from "../../auth/access-token";
import { AppError } from "../../lib/app-error";
import { ensureNotLimited, hit, LIMITS } from "../../lib/rate-limit";
import { hashToken, newToken } from "../../lib/tokens";
import { queueMail } from "../../mail/outbox";
import type { Context } from "../../trpc/context";
import { getProfile, type Profile, toProfile } from "../account";
import { signChallenge, type TwoFactorChallenge } from "./challenge";
import { appLink, findUserByEmail, type UserRow, userMailVariables } from "./users";

export const REFRESH_COOKIE = "refresh_token";
export const REFRESH_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** A rotated token presented again within this window is a race of two tabs, not a theft. */
const ROTATION_GRACE_MS = 10_000;

export interface Session {
  token: string;
  refreshToken: string;
  /** epoch milliseconds */
  expiresAt: number;
  user: Profile;
}

type Ctx = Pick<Context, "db" | "env" | "mail" | "ip" | "jwtKey">;

// verified against for unknown addresses, so response times do not reveal which accounts exist
const dummyHash = hashPassword("timing-equaliser-not-a-password");

export const invalidCredentials = () =>
  new AppError("UNAUTHORIZED", MSG.loginServerInvalid, MSG.loginInvalid, MSG.loginServerInvalidTranslated);

/** The failure limits of a sign-in, per address and per account; a wrong second factor counts like a wrong password. */
export function loginLimits(ctx: Pick<Ctx, "db" | "ip">, email: string) {
  const accountKey = `login:account:${email.trim().toLowerCase()}`;
  const ipKey = `login:ip:${ctx.ip}`;
  return {
    ensure: () =>
      ensureNotLimited(ctx.db, [
        [ipKey, LIMITS.loginFailuresPerIp],
        [accountKey, LIMITS.loginFailuresPerAccount],
      ]),
    countFailure: async () => {
      await hit(ctx.db, ipKey, LIMITS.loginFailuresPerIp);
      await hit(ctx.db, accountKey, LIMITS.loginFailuresPerAccount);
    },
  };
}

/**
 * The password step. An account with two-factor login gets no session yet but a short-lived challenge,
 * which `completeTwoFactorLogin` (two-factor-login.ts) turns into a session with a code.
 */
export async function login(
  ctx: Ctx,
  email: string,
  password: string,
): Promise<Session | TwoFactorChallenge> {
  const { ensure, countFailure } = loginLimits(ctx, email);
  await ensure();

  const user = await findUserByEmail(ctx.db, email);
  if (user && !user.passwordHash && user.migrationHash) {
    await sendMigrationMail(ctx, user);
    throw new AppError(
      "FORBIDDEN",
      "migrated account without password",
      MSG.migrationNeedsPassword,
      MSG.migrationNeedsPasswordTitle,
    );
  }
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (!user || !valid) {
    await countFailure();
    throw invalidCredentials();
  }
  if (!user.active) {
    if (!user.emailConfirmedAt) {
      throw new AppError(
        "FORBIDDEN",
        "EMAIL_NOT_CONFIRMED",
        MSG.emailNotConfirmed,
        MSG.emailNotConfirmedTitle,
      );
    }
    throw new AppError("FORBIDDEN", "account disabled", MSG.accountDisabled);
  }
  if (user.totpEnabledAt && user.totpSecret) {
    return signChallenge(user, ctx.jwtKey);
  }
  return issueSession(ctx, toProfile(user), randomUUID());
}

/** Mails the set-password link to a migrated account, at most once an hour. */
async function sendMigrationMail(ctx: Ctx, user: UserRow): Promise<void> {
  const hour = Math.floor(Date.now() / 3_600_000);
  const outboxId = await queueMail(ctx.db, {
    templateName: "migration-set-password",
    to: user.email,
    userId: user.id,
    variables: {
      ...userMailVariables(user),
      url: appLink(ctx.env.APP_URL, "migration", "set-password", user.id, user.migrationHash ?? ""),
    },
    idempotencyKey: `migration:${user.id}:${hour}`,
  });
  await ctx.mail.dispatch([outboxId]);
}

export async function issueSession(ctx: Ctx, user: Profile, familyId: string): Promise<Session> {
  const refreshToken = newToken();
  const [{ token, expiresAt }] = await Promise.all([
    signAccessToken({ id: user.id, roles: user.roles }, ctx.jwtKey),
    ctx.db.insert(schema.refreshTokens).values({
      userId: user.id,
      familyId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + REFRESH_LIFETIME_MS),
    }),
  ]);
  return { token, refreshToken, expiresAt, user };
}

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family issued. A spent
 * token presented again (outside a short grace window) means it was copied: the whole family is revoked.
 */
export async function refresh(ctx: Ctx, refreshToken: string): Promise<Session> {
  const { refreshTokens } = schema;
  const [row] = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) {
    throw new AppError("UNAUTHORIZED", "refresh token unknown, revoked or expired", MSG.sessionExpired);
  }
  const [spent] = await ctx.db
    .update(refreshTokens)
    .set({ rotatedAt: new Date() })
    .where(
      and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)),
    )
    .returning({ id: refreshTokens.id });
  if (!spent) {
    const rotatedAgo = Date.now() - (row.rotatedAt?.getTime() ?? 0);
    if (rotatedAgo > ROTATION_GRACE_MS) {
      await revokeFamily(ctx, row.familyId);
    }
    throw new AppError("UNAUTHORIZED", "refresh token reused", MSG.sessionExpired);
  }
  try {
    return await issueSession(ctx, await getProfile(ctx.db, row.userId), row.familyId);
  } catch (error) {
    // deleted or deactivated since: end the session for good
    await revokeFamily(ctx, row.familyId);
    throw error;
  }
}

export async function revokeFamily(ctx: Pick<Context, "db">, familyId: string): Promise<void> {
  const { refreshTokens } = schema;
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, now())` })
    .where(eq(refreshTokens.familyId, familyId));
}

/** Ends the session the refresh token belongs to (all its rotations). */
export async function logout(ctx: Pick<Context, "db">, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) {
    return;
  }
  const [row] = await ctx.db
    .select({ familyId: schema.refreshTokens.familyId })
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.tokenHash, hashToken(refreshToken)));
  if (row) {
    await revokeFamily(ctx, row.familyId);
  }
}
