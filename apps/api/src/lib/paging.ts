import type { DbOrTx } from "@app/db";
import { ADMIN_PAGE_SIZE } from "@app/shared";
import { count, type SQL, sql } from "drizzle-orm";
import type { PgSelect, PgTable } from "drizzle-orm/pg-core";

/** Counting stops this many rows past the requested page: exact totals cost as much as the table is large. */
export const COUNT_AHEAD = 1_000;

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

/** One page of a server-paged admin table, as the tables show it ("mindestens …" while `totalExact` is false). */
export interface AdminPage<Item> {
  items: Item[];
  total: number;
  totalExact: boolean;
  page: number;
  pageSize: number;
}

type RowOf<Q extends PgSelect> = Q["_"]["result"][number];

/**
 * Page `page` (from 1) of an admin table, `ADMIN_PAGE_SIZE` rows of `rows` (a dynamic select, filtered by
 * `where` and ordered, each row shaped by `map` when given), and the rows of `table` matching `where` counted
 * as `boundedCount` does.
 */
export function adminPage<Q extends PgSelect>(
  db: DbOrTx,
  query: { table: PgTable; where: SQL | undefined; page: number },
  rows: Q,
): Promise<AdminPage<RowOf<Q>>>;
export function adminPage<Q extends PgSelect, Item>(
  db: DbOrTx,
  query: { table: PgTable; where: SQL | undefined; page: number },
  rows: Q,
  map: (row: RowOf<Q>) => Item,
): Promise<AdminPage<Item>>;
export async function adminPage<Q extends PgSelect>(
  db: DbOrTx,
  query: { table: PgTable; where: SQL | undefined; page: number },
  rows: Q,
  map: (row: RowOf<Q>) => unknown = (row) => row,
): Promise<AdminPage<unknown>> {
  const offset = (query.page - 1) * ADMIN_PAGE_SIZE;
  // both at once (two connections of the pool, or one after the other in a transaction): a deep page's
  // count and rows each read past the rows before it
  const [{ total, exact }, items] = await Promise.all([
    boundedCount(db, query.table, query.where, offset),
    rows.limit(ADMIN_PAGE_SIZE).offset(offset) as Promise<RowOf<Q>[]>,
  ]);
  return { items: items.map(map), total, totalExact: exact, page: query.page, pageSize: ADMIN_PAGE_SIZE };
}

/**
 * An admin table read two ways from one select (`rows`, filtered by `where` and ordered): `list` all its
 * matching rows (REST and the selects of other tabs), `page` one page of them as `adminPage` pages; each
 * row shaped by `map`.
 */
export function adminTable<D extends DbOrTx, Q extends PgSelect, Item>(
  table: PgTable,
  rows: (db: D, where: SQL | undefined) => Q,
  map: (row: RowOf<Q>) => Item,
) {
  return {
    list: async (db: D, where?: SQL): Promise<Item[]> => ((await rows(db, where)) as RowOf<Q>[]).map(map),
    page: (db: D, input: { page: number }, where?: SQL) =>
      adminPage(db, { table, where, page: input.page }, rows(db, where), map),
  };
}
