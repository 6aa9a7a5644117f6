import { type DbOrTx, schema } from "@app/db";
import { inArray, sql } from "drizzle-orm";
import { AppError } from "./app-error";

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** Limits of the account flows (per IP and per account); stored in PostgreSQL so they hold across instances. */
export const LIMITS = {
  loginFailuresPerIp: { max: 50, windowSeconds: 15 * 60 },
  loginFailuresPerAccount: { max: 10, windowSeconds: 15 * 60 },
  registerPerIp: { max: 20, windowSeconds: 60 * 60 },
  forgotPerIp: { max: 20, windowSeconds: 15 * 60 },
  forgotPerAccount: { max: 3, windowSeconds: 15 * 60 },
  resendPerIp: { max: 20, windowSeconds: 15 * 60 },
  resendPerAccount: { max: 3, windowSeconds: 15 * 60 },
  resetPerIp: { max: 30, windowSeconds: 15 * 60 },
  migrationPerIp: { max: 30, windowSeconds: 15 * 60 },
  gatedPerIp: { max: 30, windowSeconds: 15 * 60 },
  gatedPerAccount: { max: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, Limit>;

function tooMany(key: string): AppError {
  return new AppError("TOO_MANY_REQUESTS", `rate limit ${key}`);
}

/** Counts one hit (fixed window) and refuses with 429 once the limit is passed. */
export async function hit(db: DbOrTx, key: string, limit: Limit): Promise<void> {
  const { rateLimits } = schema;
  const expired = sql`${rateLimits.windowStart} < now() - make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: new Date(), hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
        hits: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.hits} + 1 END`,
      },
    })
    .returning({ hits: rateLimits.hits });
  if ((row?.hits ?? 0) > limit.max) {
    throw tooMany(key);
  }
}

/**
 * Refuses with 429 when any of the limits is reached, without counting (for limits that count failures
 * only). One query for all of them: login checks two on every attempt.
 */
export async function ensureNotLimited(db: DbOrTx, checks: [key: string, limit: Limit][]): Promise<void> {
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
