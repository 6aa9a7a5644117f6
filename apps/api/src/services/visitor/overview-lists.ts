import { type Db, type DbOrTx, schema } from "@app/db";
import type { IsoDate } from "@app/shared";
import { asc, desc, eq, gte, sql } from "drizzle-orm";

const { congresses, congressPackages } = schema;

export type CongressRow = typeof congresses.$inferSelect;
export interface OverviewLists {
  today: IsoDate;
  /**
   * the overview's candidates: every visible congress not yet over, by first day (a few dozen in practice);
   * each visitor's six are chosen from them (`chooseOverviewCongresses`, ADR 0084)
   */
  congresses: CongressRow[];
  /** every package with its congress's title and visibility, newest first */
  packages: { pkg: typeof congressPackages.$inferSelect; congressTitle: string; congressVisible: boolean }[];
}

async function loadOverviewLists(db: DbOrTx, today: IsoDate): Promise<OverviewLists> {
  const [openCongresses, packages] = await Promise.all([
    db
      .select()
      .from(congresses)
      .where(
        sql`${congresses.visible} AND ${gte(sql`coalesce(${congresses.lastDay}, ${congresses.firstDay})`, today)}`,
      )
      .orderBy(asc(congresses.firstDay), desc(congresses.id)),
    db
      .select({ pkg: congressPackages, congressTitle: congresses.title, congressVisible: congresses.visible })
      .from(congressPackages)
      .innerJoin(congresses, eq(congresses.id, congressPackages.congressId))
      .orderBy(desc(congressPackages.id)),
  ]);
  return { today, congresses: openCongresses, packages };
}

const cached = new WeakMap<object, { at: number; entry: Promise<OverviewLists> }>();

/**
 * The parts of the overview that are the same for every visitor, kept per database for `ttlMs`. At the
 * congress opening thousands of visitors ask for them within seconds; concurrent misses share one query.
 * It is cleared (`clearOverviewLists`) whenever the kept overview answers all go: an admin's write, a change
 * announced for everybody, the change listener's connection lost or found (overview-cache.ts); a new day
 * starts fresh.
 */
export function overviewLists(db: Db, today: IsoDate, ttlMs: number): Promise<OverviewLists> {
  const hit = cached.get(db);
  if (ttlMs > 0 && hit && performance.now() - hit.at < ttlMs) {
    return hit.entry.then((entry) => (entry.today === today ? entry : overviewListsMiss(db, today, ttlMs)));
  }
  return overviewListsMiss(db, today, ttlMs);
}

function overviewListsMiss(db: Db, today: IsoDate, ttlMs: number): Promise<OverviewLists> {
  const entry = loadOverviewLists(db, today);
  if (ttlMs > 0) {
    const slot = { at: performance.now(), entry };
    cached.set(db, slot);
    entry.catch(() => {
      if (cached.get(db) === slot) {
        cached.delete(db);
      }
    });
  }
  return entry;
}

export function clearOverviewLists(db: Db): void {
  cached.delete(db);
}
