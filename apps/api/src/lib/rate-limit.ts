import { type DbOrTx, schema } from "@app/db";
import { eq, inArray, sql } from "drizzle-orm";
import { AppError } from "./app-error";

export interface Limit {
  max: number;
  windowSeconds: number;
}

const QUARTER_HOUR = 15 * 60;

/**
 * Limits of the account flows, stored in PostgreSQL so they hold across instances. The sign-in limits are
 * designed so that guessing stops without handing anyone a way to lock an account (decision 59): an
 * address from one client IP, an address over all unknown devices (much higher), a known device of the
 * account on its own, and the failures of a client IP over all addresses.
 */
export const LIMITS = {
  loginPerAccountAndIp: { max: 10, windowSeconds: QUARTER_HOUR },
  /** failures only: honest parallel sign-ins from one address (a NAT) must never count */
  loginPerIp: { max: 100, windowSeconds: QUARTER_HOUR },
  loginPerAccount: { max: 100, windowSeconds: QUARTER_HOUR },
  loginPerKnownDevice: { max: 10, windowSeconds: QUARTER_HOUR },
  /** wrong codes of the two-factor setup and wrong passwords of the account deletion, per account */
  ownAccountCheck: { max: 10, windowSeconds: QUARTER_HOUR },
  registerPerIp: { max: 20, windowSeconds: 60 * 60 },
  forgotPerIp: { max: 20, windowSeconds: QUARTER_HOUR },
  forgotPerAccount: { max: 3, windowSeconds: QUARTER_HOUR },
  resendPerIp: { max: 20, windowSeconds: QUARTER_HOUR },
  resendPerAccount: { max: 3, windowSeconds: QUARTER_HOUR },
  resetPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  migrationPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  gatedPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  gatedPerAccount: { max: 10, windowSeconds: QUARTER_HOUR },
} satisfies Record<string, Limit>;

export type LimitCheck = [key: string, limit: Limit];

function tooMany(key: string): AppError {
  return new AppError("TOO_MANY_REQUESTS", `rate limit ${key}`);
}

/**
 * Takes `key` once, atomically: true for the first caller, false for every later one (a redeemed
 * two-factor challenge, the hour's registration notice). The row goes with the retention job.
 */
export async function claimOnce(db: DbOrTx, key: string): Promise<boolean> {
  const rows = await db
    .insert(schema.rateLimits)
    .values({ key, windowStart: new Date(), hits: 1 })
    .onConflictDoNothing({ target: schema.rateLimits.key })
    .returning({ key: schema.rateLimits.key });
  return rows.length === 1;
}

/** Counts one hit on each key (fixed windows, one statement) and returns each key's count. */
async function count(db: DbOrTx, checks: LimitCheck[]): Promise<Map<string, number>> {
  const { rateLimits } = schema;
  const counts = new Map<string, number>();
  // one statement per window length (usually one): the window decides when a row starts again
  for (const windowSeconds of new Set(checks.map(([, limit]) => limit.windowSeconds))) {
    // in key order, as `release` locks them: two statements never wait for each other's rows (deadlock)
    const keys = checks
      .filter(([, limit]) => limit.windowSeconds === windowSeconds)
      .map(([key]) => key)
      .sort();
    const expired = sql`${rateLimits.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
    const rows = await db
      .insert(rateLimits)
      .values(keys.map((key) => ({ key, windowStart: sql`now()`, hits: 1 })))
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
          hits: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.hits} + 1 END`,
        },
      })
      .returning({ key: rateLimits.key, hits: rateLimits.hits });
    for (const row of rows) {
      counts.set(row.key, row.hits);
    }
  }
  return counts;
}

/** Counts one hit on each key and refuses with 429 once a limit is passed (the hit stays counted). */
export async function hit(db: DbOrTx, ...checks: LimitCheck[]): Promise<void> {
  const counts = await count(db, checks);
  for (const [key, limit] of checks) {
    if ((counts.get(key) ?? 0) > limit.max) {
      throw tooMany(key);
    }
  }
}

/**
 * Gives back one hit on each key (never below zero). The rows are locked in key order, like `count`
 * inserts them: parallel attempts on the same keys would otherwise deadlock.
 */
async function release(db: DbOrTx, keys: string[]): Promise<void> {
  const { rateLimits } = schema;
  const locked = db
    .$with("locked")
    .as(
      db
        .select({ key: rateLimits.key })
        .from(rateLimits)
        .where(inArray(rateLimits.key, keys))
        .orderBy(rateLimits.key)
        .for("update"),
    );
  await db
    .with(locked)
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .from(locked)
    .where(eq(rateLimits.key, locked.key));
}

export interface AttemptLimits {
  /** counted before the secret is checked, atomically: parallel attempts never test more than these allow */
  before: LimitCheck[];
  /**
   * read before the check and counted after a failure only: keys many honest people share (a client
   * address behind a company's or a congress venue's NAT), whose parallel sign-ins must not count
   */
  failures?: LimitCheck[];
}

/**
 * An attempt whose failures are limited (a password, a code). It is counted on every `before` key *before*
 * the secret is checked, in one atomic statement, so any number of parallel attempts can never test more
 * than those limits allow. Refused attempts give their hits back at once (a refusal must not fill other
 * keys: an attacker's 429s on one key must not count towards another). `check` runs the attempt: when it
 * succeeds, the hits are given back too, so only failures stay counted. The `failures` keys refuse once
 * their failures reached the limit and count a failure after it happened.
 */
export async function limitedAttempt<T>(
  db: DbOrTx,
  limits: AttemptLimits,
  check: () => Promise<T>,
  succeeded: (result: T) => boolean = () => true,
): Promise<T> {
  const { before, failures = [] } = limits;
  await refuseWhenReached(db, failures);
  const keys = before.map(([key]) => key);
  const counts = await count(db, before);
  const exceeded = before.find(([key, limit]) => (counts.get(key) ?? 0) > limit.max);
  if (exceeded) {
    await release(db, keys);
    throw tooMany(exceeded[0]);
  }
  let result: T;
  try {
    result = await check();
  } catch (error) {
    // an error that is not a refusal of the secret (the account is disabled, the database failed) uses
    // no attempt; a refusal is a result, not an error
    await release(db, keys);
    throw error;
  }
  if (succeeded(result)) {
    await release(db, keys);
  } else if (failures.length > 0) {
    await count(db, failures);
  }
  return result;
}

/** Refuses with 429 when any of the limits is reached, without counting (one query for all of them). */
async function refuseWhenReached(db: DbOrTx, checks: LimitCheck[]): Promise<void> {
  if (checks.length === 0) {
    return;
  }
  const { rateLimits } = schema;
  const rows = await db
    .select({ key: rateLimits.key, hits: rateLimits.hits, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(
      inArray(
        rateLimits.key,
        checks.map(([key]) => key),
      ),
    );
  const now = Date.now();
  for (const [key, limit] of checks) {
    const row = rows.find((r) => r.key === key);
    if (row && row.windowStart.getTime() >= now - limit.windowSeconds * 1000 && row.hits >= limit.max) {
      throw tooMany(key);
    }
  }
}
