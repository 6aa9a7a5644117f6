import { type DbOrTx, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG, type ZRegisterInput } from "@app/shared";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import { hashToken, newToken } from "../../lib/tokens";
import { queueMail } from "../../mail/outbox";
import type { Context } from "../../trpc/context";
import { recordConsent } from "../privacy/account-data";
import { appLink, findUserByEmail, userMailVariables } from "./users";

const CONFIRMATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

type RegisterInput = z.output<typeof ZRegisterInput>;
type Ctx = Pick<Context, "db" | "env" | "mail" | "ip">;

/** Creates an inactive account and queues the confirmation mail in the same transaction. */
export async function register(ctx: Ctx, input: RegisterInput): Promise<{ userId: number }> {
  await hit(ctx.db, `register:ip:${ctx.ip}`, LIMITS.registerPerIp);
  if (await findUserByEmail(ctx.db, input.email)) {
    throw new AppError("CONFLICT", "email taken", MSG.emailTaken, MSG.registrationTitle);
  }
  const passwordHash = await hashPassword(input.password);
  const token = newToken();
  try {
    const { userId, outboxId } = await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(schema.users)
        .values({
          email: input.email,
          firstname: input.firstname,
          lastname: input.lastname,
          passwordHash,
          active: false,
          newsletter: input.newsletter,
          newsletterConsentAt: input.newsletter ? new Date() : null,
        })
        .returning();
      if (!user) {
        throw new AppError("INTERNAL", "user insert returned nothing");
      }
      await recordConsent(tx, user.id, "privacy-policy", true, "registration");
      if (input.newsletter) {
        await recordConsent(tx, user.id, "newsletter", true, "registration");
      }
      await tx.insert(schema.emailConfirmationTokens).values({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + CONFIRMATION_LIFETIME_MS),
      });
      const url = appLink(
        ctx.env.APP_URL,
        "confirm-mail",
        user.id,
        token,
        input.congressId,
        input.showVideo ? 1 : undefined,
      );
      const outboxId = await queueMail(tx, {
        templateName: "registration-confirmation",
        to: user.email,
        userId: user.id,
        // a congress-specific template applies when the visitor registered from an existing event
        congressId: await existingCongressId(tx, input.congressId),
        variables: { ...userMailVariables(user), url },
        idempotencyKey: `registration:${user.id}`,
      });
      return { userId: user.id, outboxId };
    });
    await ctx.mail.dispatch([outboxId]);
    return { userId };
  } catch (error) {
    // two registrations with the same address at the same moment: the unique index decides
    if ((error as { cause?: { code?: string } }).cause?.code === "23505") {
      throw new AppError("CONFLICT", "email taken (race)", MSG.emailTaken, MSG.registrationTitle);
    }
    throw error;
  }
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

/** Confirms the address of the link's user; the token works once. */
export async function confirmMail(
  ctx: Pick<Context, "db">,
  userId: number,
  token: string,
): Promise<{ title: string; detail: string }> {
  const { emailConfirmationTokens: tokens, users } = schema;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(tokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(tokens.userId, userId),
          eq(tokens.tokenHash, hashToken(token)),
          isNull(tokens.usedAt),
          gt(tokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: tokens.id });
    const [user] = await tx
      .select({ emailConfirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) {
      if (user?.emailConfirmedAt) {
        return { title: MSG.confirmMailSuccessTitle, detail: MSG.confirmMailAlready };
      }
      throw new AppError(
        "BAD_REQUEST",
        "confirmation token invalid",
        MSG.confirmMailInvalid,
        MSG.confirmMailFailed,
      );
    }
    await tx.update(users).set({ active: true, emailConfirmedAt: new Date() }).where(eq(users.id, userId));
    return { title: MSG.confirmMailSuccessTitle, detail: MSG.confirmMailSuccess };
  });
}

/** Sends a new confirmation link to an unconfirmed account; the answer never says whether one exists. */
export async function resendConfirmation(ctx: Ctx, email: string): Promise<{ detail: string }> {
  await hit(ctx.db, `resend:ip:${ctx.ip}`, LIMITS.resendPerIp);
  await hit(ctx.db, `resend:account:${email.trim().toLowerCase()}`, LIMITS.resendPerAccount);
  const user = await findUserByEmail(ctx.db, email);
  if (user && !user.emailConfirmedAt) {
    const token = newToken();
    const outboxId = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schema.emailConfirmationTokens)
        .values({
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + CONFIRMATION_LIFETIME_MS),
        })
        .returning({ id: schema.emailConfirmationTokens.id });
      return queueMail(tx, {
        templateName: "registration-confirmation",
        to: user.email,
        userId: user.id,
        variables: {
          ...userMailVariables(user),
          url: appLink(ctx.env.APP_URL, "confirm-mail", user.id, token),
        },
        idempotencyKey: `registration-resend:${row?.id}`,
      });
    });
    await ctx.mail.dispatch([outboxId]);
  }
  return { detail: MSG.resendConfirmationDone };
}
