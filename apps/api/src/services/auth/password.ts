import { type Db, type DbOrTx, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG } from "@app/shared";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import { hashToken, safeEqual } from "../../lib/tokens";
import { queueMail } from "../../mail-delivery/outbox";
import type { ClientIo, SessionDeps } from "../deps";
import { endAllSessions, rememberDevice } from "./session";
import {
  findUserByEmail,
  type LinkOrigin,
  newOneTimeLink,
  type UserRow,
  userMailVariables,
} from "./user-rows";

type Ctx = Pick<SessionDeps, "db" | "env" | "mail" | "jwtKey" | "sessionStates" | "clock"> & ClientIo;

/**
 * Mails a reset link if the account exists; the answer is the same either way and takes the same time:
 * the lookup and the mail are a job's work after the answer (`queuePasswordResetMail`).
 */
export async function requestPasswordReset(
  ctx: Ctx,
  { email }: { email: string },
): Promise<{ detail: string }> {
  await hit(
    ctx,
    [`forgot:ip:${ctx.ip}`, LIMITS.forgotPerIp],
    [`forgot:account:${email.trim().toLowerCase()}`, LIMITS.forgotPerAccount],
  );
  await ctx.mail.defer({ kind: "password-reset", email });
  return { detail: MSG.forgotPasswordDone };
}

/** The reset mail of the account with this address, if there is one; the outbox id to dispatch. */
export async function queuePasswordResetMail(
  db: Db,
  origin: LinkOrigin,
  email: string,
): Promise<number | null> {
  const user = await findUserByEmail(db, email);
  return user ? queueResetMail(db, origin, user, "password-reset") : null;
}

/**
 * A new reset link for `user` and its mail in the outbox, in one transaction: the reset mail itself, or
 * the notice to the owner of an address someone tried to register again (register.ts).
 */
export async function queueResetMail(
  db: DbOrTx,
  origin: LinkOrigin,
  user: UserRow,
  templateName: "password-reset" | "registration-existing-account",
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const { id, url } = await newOneTimeLink(tx, "reset", origin, user.id);
    return queueMail(tx, {
      templateName,
      to: user.email,
      userId: user.id,
      variables: { ...userMailVariables(user), url },
      idempotencyKey: `${templateName}:${id}`,
    });
  });
}

/** A new reset link of the account (its token stored hashed): the link and the token's id. */
function usableResetToken(token: string, now: Date) {
  const t = schema.passwordResetTokens;
  return and(eq(t.tokenHash, hashToken(token)), isNull(t.usedAt), gt(t.expiresAt, now));
}

export async function validateResetToken(
  ctx: Pick<SessionDeps, "db" | "clock">,
  { token }: { token: string },
): Promise<{ valid: boolean }> {
  const [row] = await ctx.db
    .select({ id: schema.passwordResetTokens.id })
    .from(schema.passwordResetTokens)
    .where(usableResetToken(token, ctx.clock.now()));
  return { valid: Boolean(row) };
}

/**
 * Sets the password and ends every session of the account (and spends every other reset link), in one
 * transaction. Following the mailed link proves the mailbox: the browser becomes a known device of the
 * account, so the owner signs in there even while someone guesses the password into its limits.
 */
export async function resetPassword(
  ctx: Ctx,
  { token, password }: { token: string; password: string },
): Promise<{ detail: string }> {
  await hit(ctx, [`reset:ip:${ctx.ip}`, LIMITS.resetPerIp]);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  const userId = await ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(schema.passwordResetTokens)
      .set({ usedAt: now })
      .where(usableResetToken(token, now))
      .returning({ userId: schema.passwordResetTokens.userId });
    if (!spent) {
      throw new AppError("BAD_REQUEST", "reset token invalid", MSG.resetPasswordInvalid);
    }
    await setPassword(tx, spent.userId, passwordHash, now);
    return spent.userId;
  });
  ctx.sessionStates.drop([userId]);
  rememberDevice(ctx, userId);
  return { detail: MSG.resetPasswordSuccess };
}

/** First password of a migrated account, from the link with its migration hash. */
export async function migrationSetPassword(
  ctx: Ctx,
  { userId, hash, password }: { userId: number; hash: string; password: string },
): Promise<{ detail: string }> {
  await hit(ctx, [`migration:ip:${ctx.ip}`, LIMITS.migrationPerIp]);
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
    await setPassword(tx, user.id, passwordHash, ctx.clock.now());
  });
  ctx.sessionStates.drop([user.id]);
  return { detail: MSG.migrationSuccess };
}

/**
 * Stores a new password hash, clears a pending migration and ends all sessions. Following a mailed link
 * proves the address, so a not yet confirmed account becomes active; one an admin switched off stays off.
 */
async function setPassword(tx: DbOrTx, userId: number, passwordHash: string, now: Date): Promise<void> {
  const { users } = schema;
  await tx
    .update(users)
    .set({
      passwordHash,
      migrationHash: null,
      active: sql`CASE WHEN ${users.emailConfirmedAt} IS NULL THEN true ELSE ${users.active} END`,
      emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})`,
    })
    .where(eq(users.id, userId));
  await endAllSessions(tx, userId, now);
}
