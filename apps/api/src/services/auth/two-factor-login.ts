import { randomUUID } from "node:crypto";
import { schema } from "@app/db";
import { TWO_FACTOR_MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { Context } from "../../trpc/context";
import { toProfile } from "../account";
import { passwordMark, readChallenge } from "./challenge";
import { issueSession, loginLimits, type Session } from "./session";
import { acceptSecondFactor } from "./totp";

type Ctx = Pick<Context, "db" | "env" | "mail" | "ip" | "jwtKey">;

const expired = () =>
  new AppError("UNAUTHORIZED", "two-factor challenge invalid", TWO_FACTOR_MSG.challengeExpired);

/**
 * The second step of a two-factor login: the challenge of the password step and a current TOTP code or an
 * unused recovery code give the session (a refresh-token family like any login, so refreshing needs no
 * code). Wrong codes count against the same limits as wrong passwords.
 */
export async function completeTwoFactorLogin(ctx: Ctx, challenge: string, code: string): Promise<Session> {
  const claims = await readChallenge(challenge, ctx.jwtKey);
  if (!claims) {
    throw expired();
  }
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, claims.userId));
  if (!user?.active || !user.totpEnabledAt || passwordMark(user.passwordHash) !== claims.passwordMark) {
    throw expired();
  }
  const { ensure, countFailure } = loginLimits(ctx, user.email);
  await ensure();
  if (!(await acceptSecondFactor(ctx.db, user, code))) {
    await countFailure();
    throw new AppError(
      "UNAUTHORIZED",
      "second factor refused",
      TWO_FACTOR_MSG.codeInvalid,
      TWO_FACTOR_MSG.codeInvalidTitle,
      "two-factor-code-invalid",
    );
  }
  return issueSession(ctx, toProfile(user), randomUUID());
}
