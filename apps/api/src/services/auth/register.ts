import { type DbOrTx, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { isReturnPath, MSG, REFUSALS, type ZRegisterInput } from "@app/shared";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { z } from "zod";
import { AppError, refuse } from "../../lib/app-error";
import { firstInWindow, hit, LIMITS } from "../../lib/rate-limit";
import { hashToken, newToken } from "../../lib/tokens";
import { queueMail } from "../../mail-delivery/outbox";
import type { ClientIo, ServiceDeps } from "../deps";
import { recordConsent } from "../privacy/account-data";
import { queueResetMail } from "./password";
import { appLink, findUserByEmail, type LinkOrigin, later, linkOrigin, userMailVariables } from "./user-rows";

export const CONFIRMATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

type RegisterInput = z.output<typeof ZRegisterInput>;
type Ctx = Pick<ServiceDeps, "db" | "env" | "mail" | "log" | "clock"> & Pick<ClientIo, "ip">;

/** An address gets at most one registration mail in this time: the confirmation or the notice to its owner. */
const REGISTRATION_MAIL_WINDOW_SECONDS = 60 * 60;

/**
 * Creates an inactive account and queues the confirmation mail in the same transaction. For an address
 * that has an account already the answer is the same (nobody learns which addresses have accounts): no
 * account is created and the owner gets a notice with a reset link instead. Both ways do the same work
 * (the password is hashed, one transaction writes a token and a mail) and hand the mail to delivery
 * after the answer, so the time does not tell either.
 *
 * One registration, one mail: the first registration of an address in the hour takes the address's row
 * in `rate_limits` and holds it until its transaction ends, so registrations of the same moment (a
 * double-click) run one after the other; the later ones find the account and send nothing.
 */
export async function register(ctx: Ctx, input: RegisterInput): Promise<void> {
  await hit(ctx, [`register:ip:${ctx.ip}`, LIMITS.registerPerIp]);
  const passwordHash = await hashPassword(input.password);
  const origin = linkOrigin(ctx);
  const outboxId = await ctx.db.transaction(async (tx) => {
    const address = input.email.trim().toLowerCase();
    const first = await firstInWindow(
      { db: tx, clock: ctx.clock },
      `registration:${address}`,
      REGISTRATION_MAIL_WINDOW_SECONDS,
    );
    const existing = await findUserByEmail(tx, input.email);
    if (!existing) {
      return createAccount(tx, origin, input, passwordHash);
    }
    return first ? queueResetMail(tx, origin, existing, "registration-existing-account") : null;
  });
  dispatchAfterAnswer(ctx, outboxId);
}

/** The inactive account, its consents, its confirmation token and mail; the outbox id to dispatch. */
async function createAccount(
  tx: DbOrTx,
  { appUrl, now }: LinkOrigin,
  input: RegisterInput,
  passwordHash: string,
): Promise<number | null> {
  const [user] = await tx
    .insert(schema.users)
    .values({
      email: input.email,
      firstname: input.firstname,
      lastname: input.lastname,
      passwordHash,
      active: false,
      newsletter: input.newsletter,
      newsletterConsentAt: input.newsletter ? now : null,
    })
    .returning();
  if (!user) {
    throw new AppError("INTERNAL", "user insert returned nothing");
  }
  await recordConsent(tx, user.id, "privacy-policy", true, "registration");
  if (input.newsletter) {
    await recordConsent(tx, user.id, "newsletter", true, "registration");
  }
  const token = newToken();
  await tx.insert(schema.emailConfirmationTokens).values({
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: later(now, CONFIRMATION_LIFETIME_MS),
  });
  const url = confirmationLink(
    appLink(appUrl, "confirm-mail", user.id, token, input.congressId, input.showVideo ? 1 : undefined),
    input.redirect,
  );
  return queueMail(tx, {
    templateName: "registration-confirmation",
    to: user.email,
    userId: user.id,
    // a congress-specific template applies when the visitor registered from an existing event
    congressId: await existingCongressId(tx, input.congressId),
    variables: { ...userMailVariables(user), url },
    idempotencyKey: `registration:${user.id}`,
  });
}

/**
 * The confirmation link, with the guarded address the visitor came from (`?redirect=`, ADR 0081) when
 * there is one: the web app's confirmation page hands it to the login page, whose first login goes there.
 * The input schema refused anything but a path of this app; this asks again, so no other caller puts
 * another address into a mail.
 */
export function confirmationLink(link: string, redirect: string | undefined): string {
  if (redirect === undefined) {
    return link;
  }
  if (!isReturnPath(redirect)) {
    throw new AppError("BAD_REQUEST", "return address outside the app", MSG.returnAddressInvalid);
  }
  return `${link}?${new URLSearchParams({ redirect })}`;
}

/** The mail is committed in the outbox; its delivery starts without holding up the answer (the sweeper catches a lost start). */
function dispatchAfterAnswer(ctx: Ctx, outboxId: number | null): void {
  ctx.mail.dispatch([outboxId]).catch((error: unknown) => {
    ctx.log.warn({ err: error, outboxId }, "mail dispatch failed; the outbox sweeper sends it later");
  });
}

async function existingCongressId(db: DbOrTx, id: number | undefined): Promise<number | null> {
  if (id === undefined) {
    return null;
  }
  const [row] = await db
    .select({ id: schema.congresses.id })
    .from(schema.congresses)
    .where(eq(schema.congresses.id, id));
  return row?.id ?? null;
}

/**
 * Confirms the address of the link's user; the token works once. A genuine link of an account confirmed
 * since (used, or a later one was) says so; anything else, whether the id exists or not, gets the same
 * refusal.
 */
export async function confirmMail(
  ctx: Pick<ServiceDeps, "db" | "clock">,
  { userId, hash: token }: { userId: number; hash: string },
): Promise<{ title: string; detail: string }> {
  const { emailConfirmationTokens: tokens, users } = schema;
  const ofLink = and(eq(tokens.userId, userId), eq(tokens.tokenHash, hashToken(token)));
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(tokens)
      .set({ usedAt: now })
      .where(and(ofLink, isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
      .returning({ id: tokens.id });
    if (row) {
      await tx.update(users).set({ active: true, emailConfirmedAt: now }).where(eq(users.id, userId));
      return { title: MSG.confirmMailSuccessTitle, detail: MSG.confirmMailSuccess };
    }
    const [genuine] = await tx
      .select({ confirmedAt: users.emailConfirmedAt })
      .from(tokens)
      .innerJoin(users, eq(users.id, tokens.userId))
      .where(ofLink);
    if (genuine?.confirmedAt) {
      return { title: MSG.confirmMailSuccessTitle, detail: MSG.confirmMailAlready };
    }
    throw refuse(REFUSALS.confirmMailInvalid, "confirmation token invalid");
  });
}

/** Sends a new confirmation link to an unconfirmed account; the answer never says whether one exists. */
export async function resendConfirmation(
  ctx: Ctx,
  { email, redirect }: { email: string; redirect?: string | undefined },
): Promise<{ detail: string }> {
  await hit(
    ctx,
    [`resend:ip:${ctx.ip}`, LIMITS.resendPerIp],
    [`resend:account:${email.trim().toLowerCase()}`, LIMITS.resendPerAccount],
  );
  const user = await findUserByEmail(ctx.db, email);
  if (user && !user.emailConfirmedAt) {
    const token = newToken();
    const outboxId = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schema.emailConfirmationTokens)
        .values({
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: later(ctx.clock.now(), CONFIRMATION_LIFETIME_MS),
        })
        .returning({ id: schema.emailConfirmationTokens.id });
      return queueMail(tx, {
        templateName: "registration-confirmation",
        to: user.email,
        userId: user.id,
        variables: {
          ...userMailVariables(user),
          url: confirmationLink(appLink(ctx.env.APP_URL, "confirm-mail", user.id, token), redirect),
        },
        idempotencyKey: `registration-resend:${row?.id}`,
      });
    });
    await ctx.mail.dispatch([outboxId]);
  }
  return { detail: MSG.resendConfirmationDone };
}
