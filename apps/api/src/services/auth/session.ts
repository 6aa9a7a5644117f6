import { randomUUID } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import { hashPassword, verifyPassword } from "@app/db/password";
import { MSG, REFUSALS } from "@app/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { signAccessToken } from "../../credentials/access-token";
import {
  deviceClaimOf,
  KNOWN_DEVICE_COOKIE,
  KNOWN_DEVICE_LIFETIME_SECONDS,
  knownDeviceOf,
  newKnownDevice,
} from "../../credentials/known-device";
import { AppError, refuse } from "../../lib/app-error";
import {
  ATTEMPT_OUTCOME,
  type AttemptLimits,
  type AttemptOutcome,
  attemptCtes,
  attemptWindow,
  countFailure,
  failureArrays,
  LIMITS,
  limitedAttempt,
  release,
  releaseCte,
  settleAttempt,
} from "../../lib/rate-limit";
import { hashToken, newToken } from "../../lib/tokens";
import { queueMail } from "../../mail-delivery/outbox";
import { countedLogin } from "../../metrics/counters";
import { type Profile, sessionAccount, toProfile } from "../account";
import type { ClientIo, SessionDeps } from "../deps";
import { signChallenge, type TwoFactorChallenge } from "./challenge";
import { appLink, type UserRow, userFromJson, userMailVariables } from "./user-rows";

export const REFRESH_COOKIE = "refresh_token";
export const REFRESH_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** A rotated token presented again within this window is a race of two tabs, not a theft. */
const ROTATION_GRACE_MS = 10_000;

export interface Session {
  token: string;
  refreshToken: string;
  /** epoch milliseconds */
  expiresAt: number;
  user: Profile;
}

/**
 * The refresh token travels in an httpOnly cookie for the web app (and in JSON for API clients): every answer
 * that starts or renews a session sets it.
 */
export function withCookie(ctx: Pick<ClientIo, "cookies">, session: Session): Session {
  ctx.cookies.set(REFRESH_COOKIE, session.refreshToken, REFRESH_LIFETIME_MS / 1000);
  return session;
}

/** The sign-in's deps: the request's client address and cookie jar travel with them (ADR 0072). */
type Ctx = Pick<SessionDeps, "db" | "env" | "mail" | "jwtKey" | "clock"> & ClientIo;

// verified against for unknown addresses, so response times do not reveal which accounts exist
const dummyHash = hashPassword("timing-equaliser-not-a-password");

export const invalidCredentials = () => refuse(REFUSALS.loginInvalid, MSG.loginServerInvalid);

/**
 * Runs one sign-in attempt (a password, a second factor) under the sign-in limits (ADR 0059). The
 * attempt is counted before `check` tests the secret and given back when it succeeds. A browser in which
 * the account signed in before (its known-device cookie) counts only against itself; any other attempt
 * counts per address and client IP and per address over all unknown devices (a much higher ceiling), and
 * its failure per client IP. So nobody can lock an account: one IP reaches only its own limit, and even
 * many IPs together leave the owner's known devices and running sessions untouched.
 */
export function signInAttempt<T>(
  ctx: Pick<Ctx, "db" | "ip" | "cookies" | "jwtKey" | "clock">,
  email: string,
  userId: number | undefined,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const address = email.trim().toLowerCase();
  const device = knownDeviceOf(ctx.cookies.get(KNOWN_DEVICE_COOKIE), userId, ctx.jwtKey);
  const limits = device ? knownDeviceLimits(device) : unknownDeviceLimits(address, ctx.ip);
  return limitedAttempt(ctx, limits, check, (result) => result !== null);
}

/** A browser in which the account signed in before: its attempts count only against itself. */
const knownDeviceLimits = (device: string): AttemptLimits => ({
  before: [[`login:device:${device}`, LIMITS.loginPerKnownDevice]],
});

/** Any other browser: per address and client IP, per address over all of them, failures per client IP. */
const unknownDeviceLimits = (address: string, ip: string): AttemptLimits => ({
  before: [
    [loginPairKey(address, ip), LIMITS.loginPerAccountAndIp],
    [`login:account:${address}`, LIMITS.loginPerAccount],
  ],
  failures: [[`login:ip:${ip}`, LIMITS.loginPerIp]],
});

/** The key of an address from one client IP; the address comes first, see `rateLimitKeysOf`. */
const loginPairKey = (address: string, ip: string) => `login:pair:${address}|${ip}`;

/**
 * The rate-limit rows that name an address, for deleting them with the account: exact keys, and the
 * per-IP keys of the address by exact prefix (`address|`: no address starts with another one followed
 * by `|`, as a domain cannot contain it).
 */
export function rateLimitKeysOf(email: string): { keys: string[]; prefixes: string[] } {
  const address = email.trim().toLowerCase();
  return {
    keys: [
      `login:account:${address}`,
      `forgot:account:${address}`,
      `resend:account:${address}`,
      `sign-in-link:account:${address}`,
    ],
    prefixes: [loginPairKey(address, "")],
  };
}

/**
 * The password step's first round trip: the account of the address, whether the browser's known-device
 * cookie was issued to it, and the attempt counted under the limits that follow from that (as
 * `signInAttempt` chooses them) or refused: one statement instead of a lookup and an attempt, since
 * every sign-in of a congress morning passes here (docs/performance.md, "Login budget").
 */
const SIGN_IN_BEGIN = {
  name: "sign_in_begin",
  text: `WITH u AS (SELECT * FROM users WHERE lower(email) = lower($1)),
    known AS (SELECT EXISTS (SELECT FROM u WHERE u.id = $2::int) AS yes),
    ${attemptCtes({
      failureKeys: "$3",
      failureMax: "$4",
      failureSeconds: "$5",
      keys: "CASE WHEN (SELECT yes FROM known) THEN $6::text[] ELSE $7::text[] END",
      windowSeconds: "$8",
      skipFailures: "(SELECT yes FROM known)",
      now: "$9",
    })}
    SELECT (SELECT row_to_json(u) FROM u) AS "user", (SELECT yes FROM known) AS known, ${ATTEMPT_OUTCOME}`,
};

interface SignInStart {
  user: UserRow | undefined;
  limits: AttemptLimits;
}

async function beginSignIn(ctx: Ctx, email: string): Promise<SignInStart> {
  const address = email.trim().toLowerCase();
  const claim = deviceClaimOf(ctx.cookies.get(KNOWN_DEVICE_COOKIE), ctx.jwtKey);
  const known = claim ? knownDeviceLimits(claim.deviceId) : null;
  const unknown = unknownDeviceLimits(address, ctx.ip);
  const keys = (limits: AttemptLimits | null) => limits?.before.map(([key]) => key) ?? [];
  const { rows } = await ctx.db.$client.query<
    AttemptOutcome & { user: Record<string, unknown> | null; known: boolean }
  >({
    ...SIGN_IN_BEGIN,
    values: [
      email.trim(),
      claim?.userId ?? null,
      ...failureArrays(unknown.failures ?? []),
      keys(known),
      keys(unknown),
      attemptWindow([...(known?.before ?? []), ...unknown.before]),
      ctx.clock.now(),
    ],
  });
  const row = rows[0];
  const limits = row?.known && known ? known : unknown;
  await settleAttempt(ctx.db, limits.before, row ?? { refused: null, counts: {} });
  return { user: row?.user ? userFromJson(row.user) : undefined, limits };
}

/**
 * The password step. An account with two-factor login gets no session yet but a short-lived challenge,
 * which `completeTwoFactorLogin` (two-factor-login.ts) turns into a session with a code. The attempt runs
 * under the sign-in limits like `signInAttempt`'s, in two round trips: `beginSignIn`, and after a right
 * password the refresh token written together with giving the attempt back (`issueSession`).
 */
export function login(
  ctx: Ctx,
  credentials: { email: string; password: string },
): Promise<Session | TwoFactorChallenge> {
  // counted by outcome for the operators' /metrics, at this one place every password step passes
  return countedLogin(passwordStep(ctx, credentials));
}

async function passwordStep(
  ctx: Ctx,
  { email, password }: { email: string; password: string },
): Promise<Session | TwoFactorChallenge> {
  const { user, limits } = await beginSignIn(ctx, email);
  const counted = limits.before.map(([key]) => key);
  let verified: UserRow | null;
  try {
    if (user && !user.passwordHash && user.migrationHash) {
      await sendMigrationMail(ctx, user);
      throw refuse(REFUSALS.migrationNeedsPassword, "migrated account without password");
    }
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    verified = user && valid ? user : null;
  } catch (error) {
    // not a refusal of the password (see `limitedAttempt`): the attempt is given back
    await release(ctx.db, counted);
    throw error;
  }
  if (!verified) {
    await countFailure(ctx, limits.failures ?? []);
    throw invalidCredentials();
  }
  if (verified.active && !(verified.totpEnabledAt && verified.totpSecret)) {
    // the attempt's hits go back in the statement that writes the new session
    return startSession(ctx, verified, counted);
  }
  // a right password that opens no session yet: the attempt is given back here
  await release(ctx.db, counted);
  if (verified.active) {
    return signChallenge(verified, ctx.jwtKey, ctx.clock.now());
  }
  if (!verified.emailConfirmedAt) {
    throw refuse(REFUSALS.emailNotConfirmed, "EMAIL_NOT_CONFIRMED");
  }
  throw new AppError("FORBIDDEN", "account disabled", MSG.accountDisabled);
}

/**
 * A new session (refresh-token family) after a successful sign-in; the browser is a known device of the
 * account from now on.
 */
export function startSession(
  ctx: Pick<Ctx, "db" | "jwtKey" | "cookies" | "clock">,
  user: UserRow,
  releaseKeys: string[] = [],
): Promise<Session> {
  rememberDevice(ctx, user.id);
  return issueSession(ctx, toProfile(user), user.sessionVersion, randomUUID(), releaseKeys);
}

/** Marks the browser as a known device of the account (keeps a genuine cookie of it as it is). */
export function rememberDevice(ctx: Pick<Ctx, "cookies" | "jwtKey">, userId: number): void {
  if (!knownDeviceOf(ctx.cookies.get(KNOWN_DEVICE_COOKIE), userId, ctx.jwtKey)) {
    ctx.cookies.set(KNOWN_DEVICE_COOKIE, newKnownDevice(userId, ctx.jwtKey), KNOWN_DEVICE_LIFETIME_SECONDS);
  }
}

/** Mails the set-password link to a migrated account, at most once an hour. */
async function sendMigrationMail(ctx: Ctx, user: UserRow): Promise<void> {
  const hour = Math.floor(ctx.clock.now().getTime() / 3_600_000);
  const outboxId = await queueMail(ctx.db, {
    templateName: "migration-set-password",
    to: user.email,
    userId: user.id,
    variables: {
      ...userMailVariables(user),
      url: appLink(ctx.env.APP_URL, "migration", "set-password", user.id, user.migrationHash ?? ""),
    },
    idempotencyKey: `migration:${user.id}:${hour}`,
  });
  await ctx.mail.dispatch([outboxId]);
}

/**
 * A new refresh token's row, and the sign-in attempt's hits given back in the same round trip (an empty
 * array for a renewal; hand-prepared: every sign-in writes one).
 */
const INSERT_REFRESH_TOKEN = {
  name: "refresh_token_insert",
  text: `WITH ${releaseCte("$5")}
    INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
};

export async function issueSession(
  ctx: Pick<Ctx, "db" | "jwtKey" | "clock">,
  user: Profile,
  sessionVersion: number,
  familyId: string,
  /** the sign-in attempt's rate-limit keys, given back with the new token (see `login`) */
  releaseKeys: string[] = [],
): Promise<Session> {
  const refreshToken = newToken();
  const [{ token, expiresAt }] = await Promise.all([
    signAccessToken(
      { id: user.id, roles: user.roles, sessionVersion, sessionId: familyId },
      ctx.jwtKey,
      ctx.clock.now().getTime(),
    ),
    ctx.db.$client.query({
      ...INSERT_REFRESH_TOKEN,
      values: [
        user.id,
        familyId,
        hashToken(refreshToken),
        new Date(ctx.clock.now().getTime() + REFRESH_LIFETIME_MS),
        releaseKeys,
      ],
    }),
  ]);
  return { token, refreshToken, expiresAt, user };
}

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family issued. A spent
 * token presented again (outside a short grace window) means it was copied: the whole family is revoked.
 */
export async function refresh(
  ctx: Pick<Ctx, "db" | "jwtKey" | "clock">,
  refreshToken: string,
): Promise<Session> {
  const { refreshTokens } = schema;
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  if (!row || row.revokedAt || row.expiresAt <= now) {
    throw new AppError("UNAUTHORIZED", "refresh token unknown, revoked or expired", MSG.sessionExpired);
  }
  const [spent] = await ctx.db
    .update(refreshTokens)
    .set({ rotatedAt: now })
    .where(
      and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)),
    )
    .returning({ id: refreshTokens.id });
  if (!spent) {
    const rotatedAgo = now.getTime() - (row.rotatedAt?.getTime() ?? 0);
    if (rotatedAgo > ROTATION_GRACE_MS) {
      await revokeFamily(ctx, row.familyId);
    }
    throw new AppError("UNAUTHORIZED", "refresh token reused", MSG.sessionExpired);
  }
  try {
    const { profile, sessionVersion } = await sessionAccount(ctx.db, row.userId);
    return await issueSession(ctx, profile, sessionVersion, row.familyId);
  } catch (error) {
    // deleted or deactivated since: end the session for good
    await revokeFamily(ctx, row.familyId);
    throw error;
  }
}

export async function revokeFamily(ctx: Pick<SessionDeps, "db" | "clock">, familyId: string): Promise<void> {
  const { refreshTokens } = schema;
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, ${ctx.clock.now()})` })
    .where(eq(refreshTokens.familyId, familyId));
}

/**
 * Ends every session of the account at once, in the transaction of the change that demands it (a new
 * password, two-factor login switched on or off, the account switched off): its session version goes up,
 * so every access token issued before is refused on the next call (`SessionStates`); every refresh-token
 * family is revoked; every reset link and sign-in link not yet used is spent.
 */
export async function endAllSessions(tx: DbOrTx, userId: number, now: Date): Promise<void> {
  const { users, refreshTokens, passwordResetTokens, signInLinks } = schema;
  await tx
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, ${now})` })
    .where(eq(refreshTokens.userId, userId));
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  await tx
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt)));
}

/**
 * Ends the session the refresh token belongs to (all its rotations) and its access tokens: this instance
 * forgets the account's session state at once, the others when the database announces the revocation
 * (migration 0019), so the token is refused everywhere from the next call on (`SessionStates`).
 */
export async function logout(
  ctx: Pick<SessionDeps, "db" | "clock" | "sessionStates">,
  refreshToken: string | undefined,
): Promise<void> {
  if (!refreshToken) {
    return;
  }
  const [row] = await ctx.db
    .select({ familyId: schema.refreshTokens.familyId, userId: schema.refreshTokens.userId })
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.tokenHash, hashToken(refreshToken)));
  if (row) {
    await revokeFamily(ctx, row.familyId);
    ctx.sessionStates.drop([row.userId]);
  }
}
