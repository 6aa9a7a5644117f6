import type { Db } from "@app/db";
import { sql } from "drizzle-orm";
import { loadEnv } from "../../../apps/api/src/env";
import { loadDashboard } from "../../../apps/api/src/services/admin/dashboard";
import { deleteUser, listUsers } from "../../../apps/api/src/services/admin/users";
import { listOrders } from "../../../apps/api/src/services/commerce/admin-orders";
import { systemClock } from "../../../apps/api/src/services/deps";
import { overview } from "../../../apps/api/src/services/visitor/overview";
// the services' context type reads cookies; the router file carries that fastify type augmentation
import type {} from "../../../apps/api/src/trpc/router";
import { percentile } from "./load";
import { median } from "./report";
import { HEAVY_PARTICIPATIONS } from "./scale-seed";

/** One measured call of a service function; `run` may be called again on another Drizzle instance. */
export interface ScaleQuery {
  name: string;
  run(db: Db): Promise<unknown>;
  /** why only the absolute budget applies: the cost grows with the data by design */
  noRatioBudget?: string;
}

/** What the queries look for, taken from the seeded data (the generator is the same for every size). */
export interface Fixtures {
  /** first plus last name of one user: shared by about users / 400 people */
  commonName: string;
  /** a rare last name: about users / 5000 people */
  rareName: string;
  /** the local part of one user's e-mail address */
  emailFragment: string;
  heavyUserId: number;
  actorId: number;
  /** users with participations and both kinds of orders, deleted one per call */
  victims: number[];
}

export interface Timing {
  median: number;
  p95: number;
}

/** A user whose generated name and e-mail serve as search terms; present in every size. */
const SAMPLE_USER = 777;
/** The first user with a rare last name (ids divisible by 997). */
const RARE_USER = 997;
const ADMIN_USER = 1;
/** The deep page the order lists are timed at. */
export const DEEP_PAGE = 500;

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const result = await db.execute(query);
  const row = result.rows[0];
  if (!row) {
    throw new Error(`scale fixtures: no row for ${JSON.stringify(query)}`);
  }
  return row as T;
}

export async function findFixtures(db: Db, victimCount: number): Promise<Fixtures> {
  const sample = await one<{ name: string; email: string }>(
    db,
    sql`SELECT lower(firstname || ' ' || lastname) AS name, email FROM users WHERE id = ${SAMPLE_USER}`,
  );
  const rare = await one<{ name: string }>(
    db,
    sql`SELECT lower(lastname) AS name FROM users WHERE id = ${RARE_USER}`,
  );
  const heavy = await one<{ id: number }>(
    db,
    sql`SELECT p.user_id AS id FROM participations p JOIN users u ON u.id = p.user_id WHERE u.active
        GROUP BY p.user_id HAVING count(*) = ${HEAVY_PARTICIPATIONS} ORDER BY p.user_id LIMIT 1`,
  );
  const victims = await db.execute<{ id: number }>(
    sql`SELECT u.id FROM users u
        WHERE u.id NOT IN (${ADMIN_USER}, ${SAMPLE_USER}, ${RARE_USER}, ${heavy.id})
          AND EXISTS (SELECT 1 FROM participations p WHERE p.user_id = u.id)
          AND EXISTS (SELECT 1 FROM congress_ticket_orders o WHERE o.user_id = u.id)
          AND EXISTS (SELECT 1 FROM congress_package_orders o WHERE o.user_id = u.id)
        ORDER BY u.id DESC LIMIT ${victimCount}`,
  );
  if (victims.rows.length < victimCount) {
    throw new Error(`scale fixtures: only ${victims.rows.length} of ${victimCount} users to delete`);
  }
  return {
    commonName: sample.name,
    rareName: rare.name,
    emailFragment: sample.email.split("@")[0] ?? sample.email,
    heavyUserId: heavy.id,
    actorId: ADMIN_USER,
    victims: victims.rows.map((r) => r.id),
  };
}

/**
 * The measured calls, all through the real service functions. The delete comes last: it removes a
 * different user (with participations, orders and mails) on every call.
 */
export function scaleQueries(url: string, fixtures: Fixtures): ScaleQuery[] {
  const env = loadEnv({ NODE_ENV: "test", DATABASE_URL: url });
  // the event and package lists are cached per API instance for a few seconds; without the cache every
  // call pays for them, as the first request after each expiry does
  const uncached = loadEnv({ NODE_ENV: "test", DATABASE_URL: url, CATALOGUE_CACHE_MS: "0" });
  const victims = [...fixtures.victims];
  const nextVictim = () => {
    const id = victims.shift();
    if (id === undefined) {
      throw new Error("scale: no user left to delete");
    }
    return id;
  };
  const users = (name: string, email: string) => (db: Db) => listUsers(db, { name, email, page: 1 });
  return [
    { name: `users by name "${fixtures.commonName}"`, run: users(fixtures.commonName, "") },
    { name: `users by name "${fixtures.rareName}"`, run: users(fixtures.rareName, "") },
    { name: `users by e-mail "${fixtures.emailFragment}"`, run: users("", fixtures.emailFragment) },
    { name: "package orders page 1", run: (db) => listOrders(db, { kind: "package", search: "", page: 1 }) },
    {
      name: `package orders page ${DEEP_PAGE}`,
      run: (db) => listOrders(db, { kind: "package", search: "", page: DEEP_PAGE }),
    },
    {
      name: "package orders by e-mail",
      run: (db) => listOrders(db, { kind: "package", search: fixtures.emailFragment, page: 1 }),
    },
    { name: "ticket orders page 1", run: (db) => listOrders(db, { kind: "ticket", search: "", page: 1 }) },
    {
      name: `ticket orders page ${DEEP_PAGE}`,
      run: (db) => listOrders(db, { kind: "ticket", search: "", page: DEEP_PAGE }),
    },
    {
      name: "ticket orders by e-mail",
      run: (db) => listOrders(db, { kind: "ticket", search: fixtures.emailFragment, page: 1 }),
    },
    {
      name: `overview (${HEAVY_PARTICIPATIONS} participations, no catalogue cache)`,
      run: (db) => overview({ db, env: uncached, clock: systemClock }, fixtures.heavyUserId),
      noRatioBudget:
        "loads the shared event and package lists, which an instance does once per CATALOGUE_CACHE_MS; they grow with the number of packages",
    },
    {
      name: `overview (${HEAVY_PARTICIPATIONS} participations, cached catalogue)`,
      run: (db) => overview({ db, env, clock: systemClock }, fixtures.heavyUserId),
    },
    { name: "delete user (cascade)", run: (db) => deleteUser(db, fixtures.actorId, nextVictim()) },
    { name: "admin dashboard (all aggregates)", run: (db) => loadDashboard({ db, clock: systemClock }) },
  ];
}

export interface Target {
  db: Db;
  query: ScaleQuery;
}

async function timed(target: Target): Promise<number> {
  const started = performance.now();
  await target.query.run(target.db);
  return performance.now() - started;
}

const timing = (samples: number[]): Timing => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(sorted), p95: percentile(sorted, 95) };
};

/**
 * The same query on the small and the large database: warm-up calls on both (plans, buffers, JIT), then
 * `repetitions` timed calls alternating between the two, so that load from elsewhere on the machine falls on
 * both sides alike.
 */
export async function timePair(
  small: Target,
  large: Target,
  warmups: number,
  repetitions: number,
): Promise<{ small: Timing; large: Timing }> {
  for (let i = 0; i < warmups; i++) {
    await timed(small);
    await timed(large);
  }
  const samples = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < repetitions; i++) {
    samples.small.push(await timed(small));
    samples.large.push(await timed(large));
  }
  return { small: timing(samples.small), large: timing(samples.large) };
}
