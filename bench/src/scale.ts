/**
 * Data at scale: 100,000 users, 1,000 events, 1,000,000 participations and 300,000 orders, generated in
 * SQL, and the admin lists, the user delete and the visitor overview timed on them through the real service
 * functions, next to the same calls on a database of 1,000 users on the same server. `--size xl` adds a
 * database ten times the large one and reports each query's growth from large to xl (nightly, not in CI).
 */
import type { DbHandle } from "@app/db";
import { ADMIN_PAGE_SIZE } from "@app/shared";
import { COUNT_AHEAD } from "../../apps/api/src/lib/paging";
import { type BenchDatabase, startBenchDatabase } from "./lib/database";
import { explainSlowest } from "./lib/explain";
import { type BenchResult, type Budget, isShort, type Row } from "./lib/report";
import {
  DEEP_PAGE,
  findFixtures,
  type ScaleQuery,
  scaleQueries,
  type Timing,
  timePair,
} from "./lib/scale-queries";
import { type ScaleSize, type SeedStep, seedScale } from "./lib/scale-seed";

const MEDIAN_LIMIT_MS = 50;
const RATIO_LIMIT = 3;
/**
 * Sub-millisecond medians on the small database are mostly client and network noise; dividing by them would
 * turn a 0.3 → 1.2 ms change into a "4x" regression. Ratios use max(small median, 1 ms) as their base.
 */
const RATIO_FLOOR_MS = 1;
const SEED_LIMIT_S = 120;

const sized = (users: number, congresses: number): ScaleSize => ({
  users,
  congresses,
  participations: users * 10,
  packageOrders: users * 1.5,
  ticketOrders: users * 1.5,
});

/**
 * Orders of each kind that the order lists' deep page needs to do on a database the work it does on any
 * larger one: the rows before it and its own, and the count's look-ahead past it.
 */
const DEEP_PAGE_ORDERS = DEEP_PAGE * ADMIN_PAGE_SIZE + COUNT_AHEAD;

/**
 * The small database keeps the proportions except for two things. Events: 50, not 10, so that one of its
 * users can take part in 50 events like the overview's user on the large one. Orders: 6,000 of each kind (six
 * per user, not 1.5), so that its page 500 exists. Past the end, page 500 is an empty page that reads no rows
 * and counts only 1,500: a shorter path, which made the ratio measure the missing rows, not the data's growth.
 */
const SMALL: ScaleSize = {
  ...sized(1_000, 50),
  packageOrders: DEEP_PAGE_ORDERS,
  ticketOrders: DEEP_PAGE_ORDERS,
};
const LARGE = isShort() ? sized(10_000, 100) : sized(100_000, 1_000);
/** `pnpm bench:scale --size xl`: ten times the large database, for the growth factor of every query */
const XL = process.env.BENCH_SIZE === "xl" ? sized(LARGE.users * 10, LARGE.congresses * 10) : null;
const WARMUPS = 3;
const REPETITIONS = isShort() ? 7 : 15;

interface Measured {
  query: ScaleQuery;
  large: Timing;
  small: Timing;
}

/** Fixtures and queries of one database; every call of the delete (two more for the evidence) takes a user. */
async function queriesOn(url: string, handle: DbHandle): Promise<ScaleQuery[]> {
  return scaleQueries(url, await findFixtures(handle.db, WARMUPS + REPETITIONS + 2));
}

async function measure(
  small: { url: string; handle: DbHandle },
  large: { url: string; handle: DbHandle },
): Promise<Measured[]> {
  const smallQueries = await queriesOn(small.url, small.handle);
  const largeQueries = await queriesOn(large.url, large.handle);
  const measured: Measured[] = [];
  for (const [i, query] of largeQueries.entries()) {
    const smallQuery = smallQueries[i];
    if (!smallQuery) {
      throw new Error(`scale: no small counterpart for ${query.name}`);
    }
    const timings = await timePair(
      { db: small.handle.db, query: smallQuery },
      { db: large.handle.db, query },
      WARMUPS,
      REPETITIONS,
    );
    measured.push({ query, ...timings });
  }
  return measured;
}

const ratioOf = (m: Measured) => m.large.median / Math.max(m.small.median, RATIO_FLOOR_MS);

async function budgetsFor(m: Measured, url: string): Promise<Budget[]> {
  const ratio = ratioOf(m);
  const budgets: Budget[] = [
    {
      name: `${m.query.name}: median < ${MEDIAN_LIMIT_MS} ms (large)`,
      ok: m.large.median < MEDIAN_LIMIT_MS,
      detail: `${m.large.median.toFixed(1)} ms`,
    },
  ];
  if (!m.query.noRatioBudget) {
    budgets.push({
      name: `${m.query.name}: ≤ ${RATIO_LIMIT}x the ${SMALL.users.toLocaleString("en")}-user database`,
      ok: ratio <= RATIO_LIMIT,
      detail: `${m.large.median.toFixed(1)} ms vs ${m.small.median.toFixed(2)} ms = ${ratio.toFixed(1)}x`,
    });
  }
  if (budgets.some((b) => !b.ok)) {
    const evidence = await explainSlowest(url, (db) => m.query.run(db));
    for (const b of budgets.filter((x) => !x.ok)) {
      b.evidence = evidence;
    }
  }
  return budgets;
}

const totalSeconds = (steps: SeedStep[]) => steps.reduce((sum, s) => sum + s.seconds, 0);

const seedRows = (steps: SeedStep[]): Row[] => [
  ...steps.map((s) => ({ table: s.table, rows: s.rows, seconds: Number(s.seconds.toFixed(2)) })),
  { table: "total", rows: "", seconds: Number(totalSeconds(steps).toFixed(2)) },
];

const queryRow = (m: Measured): Row => ({
  query: m.query.name,
  "large median ms": round2(m.large.median),
  "large p95 ms": round2(m.large.p95),
  "small median ms": round2(m.small.median),
  ratio: round2(ratioOf(m)),
});

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The growth from the large database to ten times its size, per query (`--size xl`). */
async function growth(database: BenchDatabase) {
  if (!XL) {
    return null;
  }
  console.log(`seeding ${XL.users} users, ${XL.participations} participations (xl) …`);
  const xl = await database.another("scale_xl");
  const seed = await seedScale(xl.handle.pool, XL);
  console.log("measuring (xl) …");
  const onXl = await measure(database, xl);
  // the large database is timed again next to xl (alternating calls, as for small and large)
  const rows: Row[] = onXl.map((m) => ({
    query: m.query.name,
    "large median ms": round2(m.small.median),
    "xl median ms": round2(m.large.median),
    "xl p95 ms": round2(m.large.p95),
    growth: round2(ratioOf(m)),
  }));
  return {
    table: {
      title: `Growth: ${LARGE.users.toLocaleString("en")} → ${XL.users.toLocaleString("en")} users (×10 data), medians of ${REPETITIONS} calls; growth = xl / max(large, ${RATIO_FLOOR_MS} ms)`,
      rows,
    },
    seedSeconds: totalSeconds(seed),
  };
}

async function runOn(database: BenchDatabase): Promise<BenchResult> {
  console.log(`seeding ${LARGE.users} users, ${LARGE.participations} participations …`);
  const largeSeed = await seedScale(database.handle.pool, LARGE);
  const small = await database.another("scale_small");
  const smallSeed = await seedScale(small.handle.pool, SMALL);
  console.log("measuring …");
  const measured = await measure(small, database);
  const xl = await growth(database);
  const seedSeconds = totalSeconds(largeSeed);
  const budgets: Budget[] = [
    {
      name: `seeding the large database < ${SEED_LIMIT_S} s`,
      ok: seedSeconds < SEED_LIMIT_S,
      detail: `${seedSeconds.toFixed(1)} s`,
    },
  ];
  for (const m of measured) {
    budgets.push(...(await budgetsFor(m, database.url)));
  }
  return {
    name: "scale",
    short: isShort(),
    tables: [
      { title: `Seeding (${LARGE.users.toLocaleString("en")} users), in SQL`, rows: seedRows(largeSeed) },
      {
        title: `Queries: median of ${REPETITIONS} calls after ${WARMUPS} warm-ups; large = ${LARGE.users.toLocaleString("en")} users, small = ${SMALL.users.toLocaleString("en")}`,
        rows: measured.map(queryRow),
      },
      ...(xl ? [xl.table] : []),
    ],
    budgets,
    figures: {
      large: LARGE,
      small: SMALL,
      smallSeedSeconds: totalSeconds(smallSeed),
      ...(xl && { xl: XL, xlSeedSeconds: xl.seedSeconds }),
    },
  };
}

export async function runScale(): Promise<BenchResult> {
  const database = await startBenchDatabase("scale");
  try {
    return await runOn(database);
  } finally {
    await database.stop();
  }
}
