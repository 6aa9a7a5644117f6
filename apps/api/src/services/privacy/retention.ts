import { type DbOrTx, schema } from "@app/db";
import { and, eq, isNotNull, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import { LIMITS } from "../../lib/rate-limit";
import { deleteOrphanedImages } from "../admin/images";
import { PERSONAL_IPN_WORDS } from "./account-data";

/** An account whose address was never confirmed is deleted this many days after registering. */
export const UNCONFIRMED_ACCOUNT_DAYS = 30;

/** A rate-limit row older than the longest window counts for no limit any more. */
const LONGEST_WINDOW_SECONDS = Math.max(...Object.values(LIMITS).map((limit) => limit.windowSeconds));

/** Sent mails keep only their record (template, recipient, times) after this many days. */
export const SENT_MAIL_CONTENT_DAYS = 30;
/** Payment notifications lose the buyer's personal fields after this many days (the order stays). */
export const PAYMENT_NOTIFICATION_PERSONAL_DAYS = 90;
/**
 * Watch time and presence checks of a Fortbildung event are kept this many years after their day: as long
 * as points must be provable (the five-year period of the Fortbildungspflicht); ADR 0106.
 */
export const FORTBILDUNG_RECORD_YEARS = 5;
/** The same records of an event without Fortbildung (switched off, or sent by hand) go after this many days. */
export const NON_FORTBILDUNG_RECORD_DAYS = 30;
/** A learning-check attempt started and never submitted goes after this many days (ADR 0122). */
export const OPEN_ATTEMPT_DAYS = 30;

export interface RetentionCounts {
  unconfirmedAccounts: number;
  refreshTokens: number;
  passwordResetTokens: number;
  emailConfirmationTokens: number;
  signInLinks: number;
  rateLimits: number;
  sentMailContents: number;
  paymentNotifications: number;
  fortbildungRecords: number;
  learningCheckAttempts: number;
  orphanedImages: number;
}

const { users, congressTicketOrders, congressPackageOrders } = schema;

/**
 * Registrations never confirmed, 30 days on. Kept: confirmed accounts (also those an admin switched off),
 * active ones, migrated accounts still waiting for their first password, admins, accounts with any ticket
 * or package order (paid or cancelled), and rows of deleted accounts kept for their orders. Everything that
 * hangs on the user goes with it through the schema's ON DELETE CASCADE (tokens, outbox, participations,
 * consent records, unlocks).
 */
export async function deleteUnconfirmedAccounts(db: DbOrTx): Promise<number> {
  const result = await db
    .delete(users)
    .where(
      and(
        isNull(users.emailConfirmedAt),
        eq(users.active, false),
        lt(users.createdAt, sql`now() - make_interval(days => ${UNCONFIRMED_ACCOUNT_DAYS})`),
        isNull(users.migrationHash),
        isNull(users.deletedAt),
        eq(users.admin, false),
        notExists(
          db
            .select({ one: sql`1` })
            .from(congressTicketOrders)
            .where(eq(congressTicketOrders.userId, users.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(congressPackageOrders)
            .where(eq(congressPackageOrders.userId, users.id)),
        ),
      ),
    );
  return result.rowCount ?? 0;
}

/**
 * Tokens that can never be used again: refresh tokens past their expiry (rotated ones stay until then, for
 * reuse detection), reset, confirmation and sign-in link tokens past their expiry or spent, rate-limit windows that are over.
 */
export async function deleteExpiredTokens(
  db: DbOrTx,
): Promise<
  Pick<
    RetentionCounts,
    "refreshTokens" | "passwordResetTokens" | "emailConfirmationTokens" | "signInLinks" | "rateLimits"
  >
> {
  const { refreshTokens, passwordResetTokens, emailConfirmationTokens, signInLinks, rateLimits } = schema;
  const refresh = await db.delete(refreshTokens).where(lte(refreshTokens.expiresAt, sql`now()`));
  const reset = await db
    .delete(passwordResetTokens)
    .where(or(lte(passwordResetTokens.expiresAt, sql`now()`), isNotNull(passwordResetTokens.usedAt)));
  const confirmation = await db
    .delete(emailConfirmationTokens)
    .where(or(lte(emailConfirmationTokens.expiresAt, sql`now()`), isNotNull(emailConfirmationTokens.usedAt)));
  const signIn = await db
    .delete(signInLinks)
    .where(or(lte(signInLinks.expiresAt, sql`now()`), isNotNull(signInLinks.usedAt)));
  const limits = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - make_interval(secs => ${LONGEST_WINDOW_SECONDS})`));
  return {
    refreshTokens: refresh.rowCount ?? 0,
    passwordResetTokens: reset.rowCount ?? 0,
    emailConfirmationTokens: confirmation.rowCount ?? 0,
    signInLinks: signIn.rowCount ?? 0,
    rateLimits: limits.rowCount ?? 0,
  };
}

/**
 * What old records no longer need: the variables of mails sent 30 days ago (names, and links whose tokens
 * have long expired) and the buyer's personal fields in payment notifications after 90 days (the order
 * keeps number, product and status; the same words as for a deleted account, PERSONAL_IPN_WORDS).
 */
export async function stripOldPersonalData(
  db: DbOrTx,
): Promise<Pick<RetentionCounts, "sentMailContents" | "paymentNotifications">> {
  const { mailOutbox, paymentNotifications } = schema;
  const mails = await db
    .update(mailOutbox)
    .set({ variables: {} })
    .where(
      and(
        eq(mailOutbox.status, "sent"),
        lt(mailOutbox.sentAt, sql`now() - make_interval(days => ${SENT_MAIL_CONTENT_DAYS})`),
        sql`${mailOutbox.variables} <> '{}'::jsonb`,
      ),
    );
  const personal = sql`string_to_array(lower(k), '_') && ${sql.param([...PERSONAL_IPN_WORDS])}::text[]`;
  const notifications = await db.execute(sql`
    UPDATE ${paymentNotifications}
       SET payload = (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
                        FROM jsonb_each(payload) AS e(k, v) WHERE NOT (${personal}))
     WHERE received_at < now() - make_interval(days => ${PAYMENT_NOTIFICATION_PERSONAL_DAYS})
       AND EXISTS (SELECT 1 FROM jsonb_object_keys(payload) AS k WHERE ${personal})`);
  return { sentMailContents: mails.rowCount ?? 0, paymentNotifications: notifications.rowCount ?? 0 };
}

/**
 * Watch time and presence checks past their time (ADR 0106): five years after their Berlin day for a
 * Fortbildung event, 30 days for any other. Rows by their own day, so the database's date decides.
 */
export async function deleteOldFortbildungRecords(db: DbOrTx): Promise<number> {
  const today = sql`(now() AT TIME ZONE 'Europe/Berlin')::date`;
  let deleted = 0;
  for (const table of ["watch_time", "presence_checks"]) {
    const result = await db.execute(sql`
      DELETE FROM ${sql.identifier(table)} r USING congresses c
       WHERE c.id = r.congress_id
         AND r.day < CASE WHEN c.fortbildung
           THEN ${today} - make_interval(years => ${FORTBILDUNG_RECORD_YEARS})
           ELSE ${today} - make_interval(days => ${NON_FORTBILDUNG_RECORD_DAYS}) END`);
    deleted += result.rowCount ?? 0;
  }
  // a person's clock of a day bounds that day's watch time (ADR 0126) and goes with the last of it
  const clocks = await db.execute(sql`
    DELETE FROM watch_clocks k WHERE k.day < ${today} - 1
       AND NOT EXISTS (SELECT 1 FROM watch_time w WHERE w.user_id = k.user_id AND w.day = k.day)`);
  return deleted + (clocks.rowCount ?? 0);
}

/**
 * Learning-check attempts past their time (ADR 0122): a submitted one is part of the proof of a
 * recording's points and stays as long as watch time does (five years after its submission); one never
 * submitted proves nothing and goes after 30 days.
 */
export async function deleteOldLearningCheckAttempts(db: DbOrTx): Promise<number> {
  const { learningCheckAttempts: attempts } = schema;
  const result = await db
    .delete(attempts)
    .where(
      or(
        lt(attempts.submittedAt, sql`now() - make_interval(years => ${FORTBILDUNG_RECORD_YEARS})`),
        and(
          isNull(attempts.submittedAt),
          lt(attempts.startedAt, sql`now() - make_interval(days => ${OPEN_ATTEMPT_DAYS})`),
        ),
      ),
    );
  return result.rowCount ?? 0;
}

/**
 * The daily clean-up (jobs/boss.ts): personal data past its time, and pictures nothing uses any more;
 * idempotent, so every instance may run it at any time.
 */
export async function runRetention(db: DbOrTx): Promise<RetentionCounts> {
  const unconfirmedAccounts = await deleteUnconfirmedAccounts(db);
  return {
    unconfirmedAccounts,
    ...(await deleteExpiredTokens(db)),
    ...(await stripOldPersonalData(db)),
    fortbildungRecords: await deleteOldFortbildungRecords(db),
    learningCheckAttempts: await deleteOldLearningCheckAttempts(db),
    orphanedImages: await deleteOrphanedImages(db),
  };
}
