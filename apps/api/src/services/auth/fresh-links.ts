import { type DbOrTx, schema } from "@app/db";
import type { MailName } from "@app/mail";
import { eq } from "drizzle-orm";
import { hashToken, newToken } from "../../lib/tokens";
import { CONFIRMATION_LIFETIME_MS } from "./register";
import { appLink, type LinkOrigin, later, newOneTimeLink } from "./user-rows";

/** What a fresh link is made for: the outbox row of the mail whose link was removed. */
interface LinkMail {
  userId: number;
  congressId: number | null;
}

type FreshLink = (tx: DbOrTx, origin: LinkOrigin, mail: LinkMail) => Promise<string | null>;

const resetLink: FreshLink = async (tx, origin, mail) =>
  (await newOneTimeLink(tx, "reset", origin, mail.userId)).url;

/**
 * A new link for each catalogue mail with a secret (`secretVariables`), for the admin's "Erneut senden" of
 * a mail that was given up: the outbox no longer holds its link (ADR 0091). null: the link has no use
 * any more (the address is confirmed, the password was set since, the account is gone).
 */
export const FRESH_LINKS: Partial<Record<MailName, FreshLink>> = {
  "registration-confirmation": async (tx, { appUrl, now }, { userId, congressId }) => {
    const [user] = await tx
      .select({ confirmedAt: schema.users.emailConfirmedAt })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    if (!user || user.confirmedAt) {
      return null;
    }
    const token = newToken();
    await tx.insert(schema.emailConfirmationTokens).values({
      userId,
      tokenHash: hashToken(token),
      expiresAt: later(now, CONFIRMATION_LIFETIME_MS),
    });
    return appLink(appUrl, "confirm-mail", userId, token, congressId ?? undefined);
  },
  "password-reset": resetLink,
  "registration-existing-account": resetLink,
  "sign-in-link": async (tx, origin, { userId }) => (await newOneTimeLink(tx, "signIn", origin, userId)).url,
  "migration-set-password": async (tx, { appUrl }, { userId }) => {
    const [user] = await tx
      .select({ migrationHash: schema.users.migrationHash })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    return user?.migrationHash
      ? appLink(appUrl, "migration", "set-password", userId, user.migrationHash)
      : null;
  },
};
