import { type DbOrTx, schema } from "@app/db";
import { verifyPassword } from "@app/db/password";
import {
  type ConsentKind,
  type ConsentSource,
  DELETED_ACCOUNT_NAME,
  deletedAccountEmail,
  MSG_PRIVACY,
} from "@app/shared";
import { and, asc, eq, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { LIMITS, limitedAttempt } from "../../lib/rate-limit";
import { rateLimitKeysOf } from "../auth/session";
import type { ServiceDeps } from "../deps";

/** DSGVO self-service: what we keep about a visitor, the consent history, and deleting the account. */

const { users, participations, congresses, congressTicketOrders, congressPackageOrders, congressPackages } =
  schema;
const { packageUnlocks, consentRecords, mailOutbox, refreshTokens, paymentNotifications } = schema;

export async function recordConsent(
  db: DbOrTx,
  userId: number,
  kind: ConsentKind,
  granted: boolean,
  source: ConsentSource,
): Promise<void> {
  await db.insert(consentRecords).values({ userId, kind, granted, source });
}

export interface ConsentEntry {
  kind: ConsentKind;
  granted: boolean;
  source: ConsentSource;
  at: Date;
}

export async function consentHistory(db: DbOrTx, userId: number): Promise<ConsentEntry[]> {
  const rows = await db
    .select({
      kind: consentRecords.kind,
      granted: consentRecords.granted,
      source: consentRecords.source,
      at: consentRecords.createdAt,
    })
    .from(consentRecords)
    .where(eq(consentRecords.userId, userId))
    .orderBy(asc(consentRecords.createdAt), asc(consentRecords.id));
  return rows as ConsentEntry[];
}

/**
 * Grants or withdraws the newsletter consent and records it; the same state twice records nothing new.
 * Answers the new state.
 */
export async function setNewsletter(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  userId: number,
  newsletter: boolean,
  source: ConsentSource,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(users)
      .set({ newsletter, newsletterConsentAt: newsletter ? clock.now() : null })
      .where(and(eq(users.id, userId), ne(users.newsletter, newsletter)))
      .returning({ id: users.id });
    if (changed) {
      await recordConsent(tx, userId, "newsletter", newsletter, source);
    }
    return newsletter;
  });
}

/**
 * Everything we keep about the visitor (DSGVO Art. 15 and 20), as one JSON document: account, event
 * sign-ups, orders, unlocked packages, attendance, watch time and presence checks (Fortbildung), consents
 * and the mails we sent. Never hashes, tokens
 * or the two-factor secret.
 */
export async function exportAccountData({ db, clock }: Pick<ServiceDeps, "db" | "clock">, userId: number) {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      firstname: users.firstname,
      lastname: users.lastname,
      roles: users.roles,
      active: users.active,
      newsletter: users.newsletter,
      newsletterConsentAt: users.newsletterConsentAt,
      efn: users.efn,
      emailConfirmedAt: users.emailConfirmedAt,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!account) {
    throw new AppError("UNAUTHORIZED", `user ${userId} missing`);
  }
  const {
    attendances,
    watchTime,
    watchClocks,
    videoPreviews,
    presenceChecks,
    learningCheckAttempts,
    learningChecks,
    certificates,
  } = schema;
  const [
    signUps,
    tickets,
    packages,
    unlocks,
    consents,
    mails,
    attended,
    watched,
    clocks,
    checks,
    learningCheckResults,
    issued,
  ] = await Promise.all([
    db
      .select({
        congressId: congresses.id,
        congress: congresses.title,
        firstDay: congresses.firstDay,
        lastDay: congresses.lastDay,
        signedUpAt: participations.createdAt,
      })
      .from(participations)
      .innerJoin(congresses, eq(congresses.id, participations.congressId))
      .where(eq(participations.userId, userId))
      .orderBy(asc(participations.createdAt)),
    db
      .select({
        orderNumber: congressTicketOrders.externalId,
        congress: congresses.title,
        status: congressTicketOrders.status,
        createdAt: congressTicketOrders.createdAt,
        updatedAt: congressTicketOrders.updatedAt,
      })
      .from(congressTicketOrders)
      .innerJoin(congresses, eq(congresses.id, congressTicketOrders.congressId))
      .where(eq(congressTicketOrders.userId, userId))
      .orderBy(asc(congressTicketOrders.createdAt)),
    db
      .select({
        orderNumber: congressPackageOrders.externalId,
        congressPackage: congressPackages.name,
        status: congressPackageOrders.status,
        createdAt: congressPackageOrders.createdAt,
        updatedAt: congressPackageOrders.updatedAt,
      })
      .from(congressPackageOrders)
      .innerJoin(congressPackages, eq(congressPackages.id, congressPackageOrders.congressPackageId))
      .where(eq(congressPackageOrders.userId, userId))
      .orderBy(asc(congressPackageOrders.createdAt)),
    db
      .select({ congressPackage: congressPackages.name, unlockedAt: packageUnlocks.createdAt })
      .from(packageUnlocks)
      .innerJoin(congressPackages, eq(congressPackages.id, packageUnlocks.congressPackageId))
      .where(eq(packageUnlocks.userId, userId)),
    consentHistory(db, userId),
    db
      .select({
        template: mailOutbox.templateName,
        to: mailOutbox.toEmail,
        status: mailOutbox.status,
        createdAt: mailOutbox.createdAt,
        sentAt: mailOutbox.sentAt,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, userId))
      .orderBy(asc(mailOutbox.createdAt)),
    db
      .select({ congress: congresses.title, day: attendances.day, firstSeenAt: attendances.firstSeenAt })
      .from(attendances)
      .innerJoin(congresses, eq(congresses.id, attendances.congressId))
      .where(eq(attendances.userId, userId))
      .orderBy(asc(attendances.day)),
    db
      .select({
        congress: congresses.title,
        day: watchTime.day,
        video: videoPreviews.url,
        source: watchTime.source,
        seconds: watchTime.seconds,
        positions: watchTime.played,
        updatedAt: watchTime.updatedAt,
      })
      .from(watchTime)
      .innerJoin(congresses, eq(congresses.id, watchTime.congressId))
      .leftJoin(videoPreviews, eq(videoPreviews.key, watchTime.videoKey))
      .where(eq(watchTime.userId, userId))
      .orderBy(asc(watchTime.day), asc(watchTime.updatedAt)),
    // the wall-clock stretches (seconds since Berlin midnight) that bound a day's watch time (ADR 0126)
    db
      .select({ day: watchClocks.day, wallClock: watchClocks.wall, lastHeartbeatAt: watchClocks.lastBeatAt })
      .from(watchClocks)
      .where(eq(watchClocks.userId, userId))
      .orderBy(asc(watchClocks.day)),
    db
      .select({
        congress: congresses.title,
        day: presenceChecks.day,
        askedAt: presenceChecks.askedAt,
        answeredAt: presenceChecks.answeredAt,
      })
      .from(presenceChecks)
      .innerJoin(congresses, eq(congresses.id, presenceChecks.congressId))
      // the moments drawn but not yet asked stay out: knowing them would defeat the checks
      .where(and(eq(presenceChecks.userId, userId), isNotNull(presenceChecks.askedAt)))
      .orderBy(asc(presenceChecks.day), asc(presenceChecks.seq)),
    // learning-success checks (ADR 0121): what was scored, not the questions' answer key
    db
      .select({
        congressPackage: congressPackages.name,
        day: learningChecks.day,
        startedAt: learningCheckAttempts.startedAt,
        submittedAt: learningCheckAttempts.submittedAt,
        scorePercent: learningCheckAttempts.scorePercent,
        passed: learningCheckAttempts.passed,
      })
      .from(learningCheckAttempts)
      .innerJoin(learningChecks, eq(learningChecks.id, learningCheckAttempts.checkId))
      .innerJoin(congressPackages, eq(congressPackages.id, learningChecks.packageId))
      .where(eq(learningCheckAttempts.userId, userId))
      .orderBy(asc(learningCheckAttempts.startedAt)),
    db
      .select({
        number: certificates.number,
        kind: certificates.kind,
        facts: certificates.facts,
        issuedAt: certificates.issuedAt,
        revokedAt: certificates.revokedAt,
        mailedAt: certificates.mailedAt,
      })
      .from(certificates)
      .where(eq(certificates.userId, userId))
      .orderBy(asc(certificates.issuedAt)),
  ]);
  return {
    exportedAt: clock.now(),
    account,
    participations: signUps,
    ticketOrders: tickets,
    packageOrders: packages,
    packageUnlocks: unlocks,
    attendance: attended,
    watchTime: watched,
    watchClocks: clocks,
    presenceChecks: checks,
    learningChecks: learningCheckResults,
    consents,
    mails,
    certificates: issued,
  };
}
export type AccountExport = Awaited<ReturnType<typeof exportAccountData>>;

/** Words in the field names of a payment notification that name or reach the buyer (buyer_email, address_city, …). */
export const PERSONAL_IPN_WORDS = new Set([
  "email",
  "mail",
  "name",
  "address",
  "street",
  "city",
  "zip",
  "zipcode",
  "phone",
  "company",
  "country",
  "state",
  "ip",
  "tax",
  "vat",
  "salutation",
]);
/** snake_case field names; the retention job applies the same rule in SQL */
const isPersonalField = (name: string) =>
  name
    .toLowerCase()
    .split("_")
    .some((w) => PERSONAL_IPN_WORDS.has(w));

/**
 * Deletes the account after the password check (DSGVO Art. 17). Without orders the row goes and the
 * database cascades everything else. With orders (commercial and tax law make us keep them, §147 AO, HGB
 * §257) the row stays as a tombstone without personal data, the orders keep their customer number and
 * everything else of the visitor is removed: sign-ups, unlocks, consents, sessions, mails, the personal
 * fields of the stored payment notifications (ADR 0037). One transaction.
 */
export async function deleteAccount(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  userId: number,
  password: string,
): Promise<void> {
  const [account] = await db
    .select({ passwordHash: users.passwordHash, roles: users.roles, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!account) {
    throw new AppError("UNAUTHORIZED", `user ${userId} missing`);
  }
  const passwordHash = account.passwordHash;
  const confirmed = await limitedAttempt(
    { db, clock },
    { before: [[`delete-account:${userId}`, LIMITS.ownAccountCheck]] },
    async () => Boolean(passwordHash && (await verifyPassword(passwordHash, password))),
    (ok) => ok,
  );
  if (!confirmed) {
    throw new AppError("BAD_REQUEST", "wrong password", MSG_PRIVACY.passwordWrong, MSG_PRIVACY.deleteTitle);
  }
  await db.transaction(async (tx) => {
    if (account.roles.includes("ROLE_ADMIN")) {
      // serialises concurrent admin deletions: two last admins must not delete each other away
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('delete-admin-account'))`);
      const [others] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(and(ne(users.id, userId), eq(users.active, true), sql`'ROLE_ADMIN' = ANY(${users.roles})`));
      if (!others?.count) {
        throw new AppError("CONFLICT", "last admin", MSG_PRIVACY.lastAdmin, MSG_PRIVACY.deleteTitle);
      }
    }
    const hasOrders = await tx.execute<{ any: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM ${congressTicketOrders} WHERE user_id = ${userId})
          OR EXISTS (SELECT 1 FROM ${congressPackageOrders} WHERE user_id = ${userId}) AS any`);
    // rate-limit windows name the address: exact keys and exact prefixes, never a pattern (an `_` in an
    // address would match any character of another one's key)
    const { keys, prefixes } = rateLimitKeysOf(account.email);
    await tx
      .delete(schema.rateLimits)
      .where(
        or(
          inArray(schema.rateLimits.key, keys),
          ...prefixes.map((prefix) => sql`starts_with(${schema.rateLimits.key}, ${prefix})`),
        ),
      );
    if (!hasOrders.rows[0]?.any) {
      await tx.delete(users).where(eq(users.id, userId));
      return;
    }
    const { attendances, recoveryCodes, watchTime, presenceChecks } = schema;
    for (const table of [
      participations,
      packageUnlocks,
      consentRecords,
      mailOutbox,
      refreshTokens,
      attendances,
      watchTime,
      presenceChecks,
      schema.learningCheckAttempts,
      recoveryCodes,
      // their codes then verify as unknown (ADR 0116)
      schema.certificates,
    ]) {
      await tx.delete(table).where(eq(table.userId, userId));
    }
    await tx.delete(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.userId, userId));
    await tx.delete(schema.signInLinks).where(eq(schema.signInLinks.userId, userId));
    await tx.delete(schema.emailConfirmationTokens).where(eq(schema.emailConfirmationTokens.userId, userId));
    const [tombstone] = await tx
      .update(users)
      .set({
        ...DELETED_ACCOUNT_NAME,
        email: deletedAccountEmail(userId),
        passwordHash: null,
        migrationHash: null,
        active: false,
        newsletter: false,
        newsletterConsentAt: null,
        roles: ["ROLE_USER"],
        totpSecret: null,
        totpEnabledAt: null,
        // the EFN identifies the person for life (ADR 0114): never kept with the orders
        efn: null,
        deletedAt: clock.now(),
      })
      .where(eq(users.id, userId))
      .returning({ digistoreHash: users.digistoreHash });
    const notifications = await tx
      .select({ id: paymentNotifications.id, payload: paymentNotifications.payload })
      .from(paymentNotifications)
      .where(sql`${paymentNotifications.custom} LIKE '%' || ${tombstone?.digistoreHash ?? "-"} || '%'`);
    for (const { id, payload } of notifications) {
      const kept = Object.fromEntries(Object.entries(payload).filter(([name]) => !isPersonalField(name)));
      await tx.update(paymentNotifications).set({ payload: kept }).where(eq(paymentNotifications.id, id));
    }
  });
}
