import { type DbOrTx, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG } from "@app/shared";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import { hashToken, newToken, safeEqual } from "../../lib/tokens";
import { queueMail } from "../../mail/outbox";
import type { Context } from "../../trpc/context";
import { appLink, findUserByEmail, userMailVariables } from "./users";

const RESET_LIFETIME_MS = 60 * 60 * 1000;
type Ctx = Pick<Context, "db" | "env" | "mail" | "ip">;

/** Mails a reset link if the account exists; the answer is the same either way. */
export async function requestPasswordReset(ctx: Ctx, email: string): Promise<{ detail: string }> {
  await hit(ctx.db, `forgot:ip:${ctx.ip}`, LIMITS.forgotPerIp);
  await hit(ctx.db, `forgot:account:${email.trim().toLowerCase()}`, LIMITS.forgotPerAccount);
  const user = await findUserByEmail(ctx.db, email);
  if (user) {
    const token = newToken();
    const outboxId = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schema.passwordResetTokens)
        .values({
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + RESET_LIFETIME_MS),
        })
        .returning({ id: schema.passwordResetTokens.id });
      return queueMail(tx, {
        templateName: "password-reset",
        to: user.email,
        userId: user.id,
        variables: { ...userMailVariables(user), url: appLink(ctx.env.APP_URL, "resetPassword", token) },
        idempotencyKey: `password-reset:${row?.id}`,
      });
    });
    await ctx.mail.dispatch([outboxId]);
  }
  return { detail: MSG.forgotPasswordDone };
}

function usableResetToken(token: string) {
  const t = schema.passwordResetTokens;
  return and(eq(t.tokenHash, hashToken(token)), isNull(t.usedAt), gt(t.expiresAt, sql`now()`));
}

export async function validateResetToken(
  ctx: Pick<Context, "db">,
  token: string,
): Promise<{ valid: boolean }> {
  const [row] = await ctx.db
    .select({ id: schema.passwordResetTokens.id })
    .from(schema.passwordResetTokens)
    .where(usableResetToken(token));
  return { valid: Boolean(row) };
}

/** Sets the password, spends the token and ends every session of the user, all in one transaction. */
export async function resetPassword(ctx: Ctx, token: string, password: string): Promise<{ detail: string }> {
  await hit(ctx.db, `reset:ip:${ctx.ip}`, LIMITS.resetPerIp);
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(schema.passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(usableResetToken(token))
      .returning({ userId: schema.passwordResetTokens.userId });
    if (!spent) {
      throw new AppError("BAD_REQUEST", "reset token invalid", MSG.resetPasswordInvalid);
    }
    await setPassword(tx, spent.userId, passwordHash);
  });
  return { detail: MSG.resetPasswordSuccess };
}

/** First password of a migrated account, from the link with its migration hash. */
export async function migrationSetPassword(
  ctx: Ctx,
  userId: number,
  hash: string,
  password: string,
): Promise<{ detail: string }> {
  await hit(ctx.db, `migration:ip:${ctx.ip}`, LIMITS.migrationPerIp);
  const { users } = schema;
  const [user] = await ctx.db
    .select({ id: users.id, migrationHash: users.migrationHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.migrationHash || !safeEqual(user.migrationHash, hash)) {
    throw new AppError("BAD_REQUEST", "migration link invalid", MSG.migrationLinkInvalid);
  }
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await setPassword(tx, user.id, passwordHash);
  });
  return { detail: MSG.migrationSuccess };
}

/**
 * Stores a new password hash, clears a pending migration and revokes all sessions. Following a mailed
 * link proves the address, so a not yet confirmed account becomes active; one an admin switched off stays off.
 */
async function setPassword(tx: DbOrTx, userId: number, passwordHash: string): Promise<void> {
  const { users, refreshTokens } = schema;
  await tx
    .update(users)
    .set({
      passwordHash,
      migrationHash: null,
      active: sql`CASE WHEN ${users.emailConfirmedAt} IS NULL THEN true ELSE ${users.active} END`,
      emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`,
    })
    .where(eq(users.id, userId));
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, now())` })
    .where(eq(refreshTokens.userId, userId));
}
