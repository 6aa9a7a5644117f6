import type { DbOrTx } from "@app/db";
import { count, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/** Counting stops this many rows past the requested page: exact totals cost as much as the table is large. */
const COUNT_AHEAD = 1_000;

/**
 * The number of rows of `table` matching `where`, counted only up to `COUNT_AHEAD` rows past the requested
 * page, so an admin table of hundreds of thousands of rows pages as fast as a small one. `exact` is false
 * when counting stopped early: the table then says "mindestens …".
 */
export async function boundedCount(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  offset: number,
): Promise<{ total: number; exact: boolean }> {
  const cap = offset + COUNT_AHEAD;
  const capped = db.select({ one: sql`1` }).from(table).where(where).limit(cap).as("capped");
  const [row] = await db.select({ n: count() }).from(capped);
  const total = row?.n ?? 0;
  return { total, exact: total < cap };
}
