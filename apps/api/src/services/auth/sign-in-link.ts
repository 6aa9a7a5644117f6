import { type Db, schema } from "@app/db";
import { MSG, REFUSALS } from "@app/shared";
import { and, eq, gt, isNull } from "drizzle-orm";
import { refuse } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import { hashToken } from "../../lib/tokens";
import { queueMail } from "../../mail-delivery/outbox";
import type { ClientIo, SessionDeps } from "../deps";
import { signChallenge, type TwoFactorChallenge } from "./challenge";
import { rememberDevice, type Session, startSession } from "./session";
import {
  findUserByEmail,
  type LinkOrigin,
  newOneTimeLink,
  type UserRow,
  userMailVariables,
} from "./user-rows";

type Ctx = Pick<SessionDeps, "db" | "env" | "mail" | "jwtKey" | "clock"> & ClientIo;

/**
 * Mails a one-time sign-in link if the address has an active account; the answer is the same either way
 * and takes the same time: the lookup and the mail are a job's work after the answer, like a reset request.
 */
export async function requestSignInLink(ctx: Ctx, { email }: { email: string }): Promise<{ detail: string }> {
  await hit(
    ctx,
    [`sign-in-link:ip:${ctx.ip}`, LIMITS.signInLinkPerIp],
    [`sign-in-link:account:${email.trim().toLowerCase()}`, LIMITS.signInLinkPerAccount],
  );
  await ctx.mail.defer({ kind: "sign-in-link", email });
  return { detail: MSG.signInLinkSent };
}

/** The sign-in link mail of the active account with this address, if there is one; the outbox id. */
export async function queueSignInLinkMail(db: Db, origin: LinkOrigin, email: string): Promise<number | null> {
  const user = await findUserByEmail(db, email);
  if (!user?.active || !user.passwordHash) {
    return null;
  }
  return db.transaction(async (tx) => {
    const { id, url } = await newOneTimeLink(tx, "signIn", origin, user.id);
    return queueMail(tx, {
      templateName: "sign-in-link",
      to: user.email,
      userId: user.id,
      variables: { ...userMailVariables(user), url },
      idempotencyKey: `sign-in-link:${id}`,
    });
  });
}

/** A new sign-in link of the account (its token stored hashed): the link and the token's id. */
/**
 * Redeems a sign-in link: spent in the statement that reads it (one use, also under parallel clicks). The
 * browser becomes a known device of the account, so the sign-in limits that strangers filled no longer
 * apply to it (ADR 0059); an account with two-factor login gets the challenge of its second step, as
 * after a right password.
 */
export async function signInWithLink(
  ctx: Ctx,
  { token }: { token: string },
): Promise<Session | TwoFactorChallenge> {
  await hit(ctx, [`sign-in-link:use:${ctx.ip}`, LIMITS.signInLinkUsePerIp]);
  const t = schema.signInLinks;
  const now = ctx.clock.now();
  const [spent] = await ctx.db
    .update(t)
    .set({ usedAt: now })
    .where(and(eq(t.tokenHash, hashToken(token)), isNull(t.usedAt), gt(t.expiresAt, now)))
    .returning({ userId: t.userId });
  const [user]: Array<UserRow | undefined> = spent
    ? await ctx.db.select().from(schema.users).where(eq(schema.users.id, spent.userId))
    : [];
  if (!user?.active) {
    throw refuse(REFUSALS.signInLinkInvalid, "sign-in link invalid");
  }
  rememberDevice(ctx, user.id);
  if (user.totpEnabledAt && user.totpSecret) {
    return signChallenge(user, ctx.jwtKey, now);
  }
  return startSession(ctx, user);
}
