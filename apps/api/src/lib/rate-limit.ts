import { type Db, type DbOrTx, schema } from "@app/db";
import { sql } from "drizzle-orm";
import type { Clock } from "../services/deps";
import { AppError } from "./app-error";

export interface Limit {
  max: number;
  windowSeconds: number;
}

const QUARTER_HOUR = 15 * 60;

/**
 * Limits of the account flows, stored in PostgreSQL so they hold across instances. The sign-in limits are
 * designed so that guessing stops without handing anyone a way to lock an account (ADR 0059): an
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
  /** sign-in links by mail (ADR 0091): asked for like a reset, used like one */
  signInLinkPerIp: { max: 20, windowSeconds: QUARTER_HOUR },
  signInLinkPerAccount: { max: 3, windowSeconds: QUARTER_HOUR },
  signInLinkUsePerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  migrationPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  gatedPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
  gatedPerAccount: { max: 10, windowSeconds: QUARTER_HOUR },
  /** the public verification of certificates (ADR 0117): a few checks are honest, a scan is not */
  certificateVerifyPerIp: { max: 30, windowSeconds: QUARTER_HOUR },
} satisfies Record<string, Limit>;

export type LimitCheck = [key: string, limit: Limit];

/**
 * Where hits are counted, and the clock their windows are read against: the services' clock (ADR 0099), so a
 * test moves the time instead of the rows.
 */
export interface Counter<D extends DbOrTx = DbOrTx> {
  db: D;
  clock: Clock;
}

function tooMany(key: string): AppError {
  return new AppError("TOO_MANY_REQUESTS", `rate limit ${key}`);
}

/**
 * Takes `key` once, atomically: true for the first caller, false for every later one (a redeemed
 * two-factor challenge). The row goes with the retention job.
 */
export async function claimOnce({ db, clock }: Counter, key: string): Promise<boolean> {
  const rows = await db
    .insert(schema.rateLimits)
    .values({ key, windowStart: clock.now(), hits: 1 })
    .onConflictDoNothing({ target: schema.rateLimits.key })
    .returning({ key: schema.rateLimits.key });
  return rows.length === 1;
}

/**
 * Counts one hit on `key` in a window of `windowSeconds` and says whether it was the window's first. In a
 * transaction the row stays locked until the end, so transactions taking the same key run one after the
 * other (the registrations of one address).
 */
export async function firstInWindow(counter: Counter, key: string, windowSeconds: number): Promise<boolean> {
  const counts = await count(counter, [[key, { max: 1, windowSeconds }]]);
  return counts.get(key) === 1;
}

/** Counts one hit on each key (fixed windows, one statement) and returns each key's count. */
async function count({ db, clock }: Counter, checks: LimitCheck[]): Promise<Map<string, number>> {
  const { rateLimits } = schema;
  const now = sql`${clock.now().toISOString()}::timestamptz`;
  const counts = new Map<string, number>();
  // one statement per window length (usually one): the window decides when a row starts again
  for (const windowSeconds of new Set(checks.map(([, limit]) => limit.windowSeconds))) {
    // in key order, as `release` locks them: two statements never wait for each other's rows (deadlock)
    const keys = checks
      .filter(([, limit]) => limit.windowSeconds === windowSeconds)
      .map(([key]) => key)
      .sort();
    const expired = sql`${rateLimits.windowStart} < ${now} - make_interval(secs => ${windowSeconds})`;
    const rows = await db
      .insert(rateLimits)
      .values(keys.map((key) => ({ key, windowStart: now, hits: 1 })))
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimits.windowStart} END`,
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
export async function hit(counter: Counter, ...checks: LimitCheck[]): Promise<void> {
  const counts = await count(counter, checks);
  for (const [key, limit] of checks) {
    if ((counts.get(key) ?? 0) > limit.max) {
      throw tooMany(key);
    }
  }
}

/**
 * The start of an attempt as two CTEs, for statements that do more in the same round trip (the sign-in
 * also reads the account, see `beginSignIn`). `reached`: the first `failures` key at its limit (read, not
 * counted), unless `skipFailures` holds. `counted`: one hit on every key of `keys`, inserted in key order
 * as `count` and `releaseCte` lock them, unless a failures key was reached. The arguments are SQL
 * expressions (parameters; `now` the clock's time, see `Counter`); select `ATTEMPT_OUTCOME` and pass the
 * row to `settleAttempt`.
 */
export function attemptCtes(p: {
  now: string;
  failureKeys: string;
  failureMax: string;
  failureSeconds: string;
  keys: string;
  windowSeconds: string;
  skipFailures?: string;
}): string {
  const now = `${p.now}::timestamptz`;
  const expired = `r.window_start < ${now} - make_interval(secs => ${p.windowSeconds}::int)`;
  return `reached AS (
      SELECT r.key FROM rate_limits r
        JOIN unnest(${p.failureKeys}::text[], ${p.failureMax}::int[], ${p.failureSeconds}::int[]) AS f(key, max, secs)
          ON f.key = r.key
       WHERE ${p.skipFailures ? `NOT ${p.skipFailures} AND ` : ""}r.window_start >= ${now} - make_interval(secs => f.secs)
         AND r.hits >= f.max
       LIMIT 1
    ), counted AS (
      INSERT INTO rate_limits AS r (key, window_start, hits)
      SELECT b.key, ${now}, 1 FROM unnest(${p.keys}) AS b(key)
       WHERE NOT EXISTS (SELECT FROM reached)
       ORDER BY b.key
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN ${expired} THEN ${now} ELSE r.window_start END,
        hits = CASE WHEN ${expired} THEN 1 ELSE r.hits + 1 END
      RETURNING r.key, r.hits
    )`;
}

/** The columns `settleAttempt` reads, for the SELECT after `attemptCtes`. */
export const ATTEMPT_OUTCOME = `(SELECT key FROM reached) AS refused,
  coalesce((SELECT json_object_agg(key, hits) FROM counted), '{}') AS counts`;

export interface AttemptOutcome {
  refused: string | null;
  counts: Record<string, number>;
}

/**
 * Refuses with 429 when a failures key was reached, or when a counted key passed its limit (its hits given
 * back first: a refusal must not fill other keys).
 */
export async function settleAttempt(db: Db, before: LimitCheck[], outcome: AttemptOutcome): Promise<void> {
  if (outcome.refused !== null) {
    throw tooMany(outcome.refused);
  }
  const exceeded = before.find(([key, limit]) => (outcome.counts[key] ?? 0) > limit.max);
  if (exceeded) {
    await release(
      db,
      before.map(([key]) => key),
    );
    throw tooMany(exceeded[0]);
  }
}

/** The one window the keys counted before an attempt share (their rows start again together). */
export function attemptWindow(before: LimitCheck[]): number {
  const windows = new Set(before.map(([, limit]) => limit.windowSeconds));
  if (windows.size > 1) {
    throw new Error("the keys counted before an attempt must share one window");
  }
  return [...windows][0] ?? 0;
}

/** The failures keys as the three arrays `attemptCtes` takes. */
export function failureArrays(failures: LimitCheck[]): [string[], number[], number[]] {
  return [
    failures.map(([key]) => key),
    failures.map(([, limit]) => limit.max),
    failures.map(([, limit]) => limit.windowSeconds),
  ];
}

const BEGIN_ATTEMPT = {
  name: "rate_limit_begin_attempt",
  text: `WITH ${attemptCtes({ failureKeys: "$1", failureMax: "$2", failureSeconds: "$3", keys: "$4::text[]", windowSeconds: "$5", now: "$6" })}
    SELECT ${ATTEMPT_OUTCOME}`,
};

/**
 * Gives back one hit on each key of the text array `keys` (never below zero), as a CTE `released` for a
 * statement that writes more in the same round trip (the sign-in's refresh token). The rows are locked in
 * key order, like `count` and `attemptCtes` insert them: parallel attempts on the same keys would otherwise
 * deadlock.
 */
export const releaseCte = (keys: string) => `released AS (
      UPDATE rate_limits AS r SET hits = greatest(r.hits - 1, 0)
        FROM (SELECT key FROM rate_limits WHERE key = ANY(${keys}::text[]) ORDER BY key FOR UPDATE) AS locked
       WHERE r.key = locked.key
    )`;

const RELEASE = {
  name: "rate_limit_release",
  text: `WITH ${releaseCte("$1")} SELECT`,
};

/** Gives back one hit on each key (see `releaseCte`). */
export async function release(db: Db, keys: string[]): Promise<void> {
  await db.$client.query({ ...RELEASE, values: [keys] });
}

/** Counts a failed attempt on the `failures` keys (after the failure; see `AttemptLimits`). */
export async function countFailure(counter: Counter, failures: LimitCheck[]): Promise<void> {
  if (failures.length > 0) {
    await count(counter, failures);
  }
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
 * their failures reached the limit and count a failure after it happened. Refusing and counting are one
 * round trip, giving back another (hand-prepared statements: this is every sign-in's path).
 */
export async function limitedAttempt<T>(
  counter: Counter<Db>,
  limits: AttemptLimits,
  check: () => Promise<T>,
  succeeded: (result: T) => boolean = () => true,
): Promise<T> {
  const { db, clock } = counter;
  const { before, failures = [] } = limits;
  const keys = before.map(([key]) => key);
  const { rows } = await db.$client.query<AttemptOutcome>({
    ...BEGIN_ATTEMPT,
    values: [...failureArrays(failures), keys, attemptWindow(before), clock.now()],
  });
  await settleAttempt(db, before, rows[0] ?? { refused: null, counts: {} });
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
  } else {
    await countFailure(counter, failures);
  }
  return result;
}
