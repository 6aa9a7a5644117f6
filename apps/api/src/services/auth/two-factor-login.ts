import { schema } from "@app/db";
import { TWO_FACTOR_MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { ClientIo, SessionDeps } from "../deps";
import { readChallenge, spendChallenge } from "./challenge";
import { type Session, signInAttempt, startSession } from "./session";
import { acceptSecondFactor } from "./totp";

type Ctx = Pick<SessionDeps, "db" | "jwtKey" | "clock"> & ClientIo;

const expired = () =>
  new AppError("UNAUTHORIZED", "two-factor challenge invalid", TWO_FACTOR_MSG.challengeExpired);

/**
 * The second step of a two-factor login: the challenge of the password step and a current TOTP code or an
 * unused recovery code give the session (a refresh-token family like any login, so refreshing needs no
 * code). Wrong codes count against the same limits as wrong passwords; a challenge is redeemed once.
 */
export async function completeTwoFactorLogin(
  ctx: Ctx,
  { challenge, code }: { challenge: string; code: string },
): Promise<Session> {
  const claims = await readChallenge(challenge, ctx.jwtKey, ctx.clock.now());
  if (!claims) {
    throw expired();
  }
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, claims.userId));
  if (!user?.active || !user.totpEnabledAt || user.sessionVersion !== claims.sessionVersion) {
    throw expired();
  }
  const accepted = await signInAttempt(ctx, user.email, user.id, async () =>
    (await acceptSecondFactor(ctx, user, code)) ? user : null,
  );
  if (!accepted) {
    throw new AppError(
      "UNAUTHORIZED",
      "second factor refused",
      TWO_FACTOR_MSG.codeInvalid,
      TWO_FACTOR_MSG.codeInvalidTitle,
      "two-factor-code-invalid",
    );
  }
  if (!(await spendChallenge(ctx, claims))) {
    throw expired();
  }
  return startSession(ctx, accepted);
}
