/**
 * The kept overview answers and session states (overview-cache.ts, session-states.ts) are right only while
 * every write to a table they are built from is announced on `OVERVIEW_CHANNEL`. Migration 0009 lists those
 * tables by hand, and the overview's main statement is raw SQL the type checker never sees; so the tables
 * are derived here from what a real overview request sends: every statement is recorded, planned with
 * `EXPLAIN (VERBOSE)`, and each relation in the plans must have change triggers for every kind of write.
 */
import { berlinDate } from "@app/shared";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createPackage,
  createUser,
  packageOrder,
  participate,
  ticketOrder,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { OVERVIEW_CHANNEL } from "./overview-cache";

interface Statement {
  text: string;
  values: unknown[];
}

type Queryable = Pick<pg.ClientBase, "query">;

/** Transaction control and settings have no plan and read nothing. */
const PLANLESS = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|RESET|START TRANSACTION)\b/i;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Schema?: string;
  Plans?: PlanNode[];
}

function relationsOf(node: PlanNode, into: Set<string>): void {
  // a write's target is not read (a statement of the request that writes is not part of what is kept)
  if (node["Relation Name"] && node["Node Type"] !== "ModifyTable") {
    into.add(`${node.Schema}.${node["Relation Name"]}`);
  }
  for (const child of node.Plans ?? []) {
    relationsOf(child, into);
  }
}

/**
 * Every table `statements` read, as planned by the database (views and subqueries resolved), sorted.
 * Tables read only inside functions the statements call would not show; the overview calls none.
 */
async function tablesRead(db: Queryable, statements: Statement[]): Promise<string[]> {
  const tables = new Set<string>();
  for (const { text, values } of statements) {
    if (PLANLESS.test(text)) {
      continue;
    }
    const { rows } = await db.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (VERBOSE, FORMAT JSON) ${text}`,
      values,
    );
    for (const { Plan } of rows[0]?.["QUERY PLAN"] ?? []) {
      relationsOf(Plan, tables);
    }
  }
  return [...tables].sort();
}

/** pg_trigger.tgtype bits (PostgreSQL's trigger.h) */
const EVENTS = { INSERT: 4, DELETE: 8, UPDATE: 16, TRUNCATE: 32 } as const;

/**
 * What is wrong with the change announcements for the tables `statements` read: one line per table naming
 * the writes no enabled trigger announces on `OVERVIEW_CHANNEL`, or a line saying no table was found
 * (the check would pass without checking anything). Empty when all is well.
 */
async function unannouncedWrites(db: Queryable, statements: Statement[]): Promise<string[]> {
  const tables = await tablesRead(db, statements);
  if (tables.length === 0) {
    return [`no table found in the ${statements.length} statements recorded`];
  }
  // triggers whose function sends on the channel (overview_notify_rows and overview_notify_all today)
  const { rows } = await db.query<{ tbl: string; events: number }>(
    `SELECT n.nspname || '.' || c.relname AS tbl, bit_or(t.tgtype)::int AS events
       FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND p.prosrc LIKE '%' || $1 || '%'
      GROUP BY 1`,
    [`pg_notify('${OVERVIEW_CHANNEL}'`],
  );
  const announced = new Map(rows.map((row) => [row.tbl, row.events]));
  return tables.flatMap((table) => {
    const events = announced.get(table) ?? 0;
    const missing = Object.entries(EVENTS)
      .filter(([, bit]) => (events & bit) === 0)
      .map(([name]) => name);
    return missing.length > 0 ? [`${table}: no ${missing.join(", ")} trigger on ${OVERVIEW_CHANNEL}`] : [];
  });
}

let t: TestApp;
let statements: Statement[] = [];

type Query = (...args: unknown[]) => unknown;

/** The statements every pooled client of the app sends while `during` runs (transactions included). */
async function recorded(during: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  // each client's own `query` before, or undefined when it used its prototype's
  const originals = new Map<{ query?: Query }, Query | undefined>();
  const onAcquire = (client: pg.PoolClient) => {
    const target = client as unknown as { query: Query };
    if (originals.has(target)) {
      return;
    }
    const query = target.query;
    originals.set(target, Object.hasOwn(target, "query") ? query : undefined);
    // pg's pool.query and drizzle both end here: (text | config, values?, callback?)
    target.query = (...args: unknown[]) => {
      const [first, second] = args;
      const config =
        typeof first === "string" ? { text: first } : (first as { text: string; values?: unknown[] });
      seen.push({ text: config.text, values: Array.isArray(second) ? second : (config.values ?? []) });
      return query.apply(client, args);
    };
  };
  t.db.pool.on("acquire", onAcquire);
  try {
    await during();
  } finally {
    t.db.pool.off("acquire", onAcquire);
    for (const [target, query] of originals) {
      if (query) {
        target.query = query;
      } else {
        delete target.query;
      }
    }
  }
  return seen;
}

beforeAll(async () => {
  // the harness switches every cache off: each request reads the database
  t = await createTestApp();
  const db = t.db.db;
  const user = await createUser(db);
  const congress = await createCongress(db, { digistoreIdTicket: 4711 });
  const pkg = await createPackage(db, congress.id);
  await participate(db, user.id, congress.id);
  await ticketOrder(db, user.id, congress.id, "paid");
  await packageOrder(db, user.id, pkg.id, "paid");
  await t.db.pool.query("INSERT INTO package_unlocks (user_id, congress_package_id) VALUES ($1, $2)", [
    user.id,
    pkg.id,
  ]);
  await t.db.pool.query(
    "INSERT INTO attendances (user_id, congress_id, day, source) VALUES ($1, $2, $3, 'video')",
    [user.id, congress.id, berlinDate()],
  );
  const token = await t.tokenFor(user.id);
  statements = await recorded(async () => {
    const answer = await trpcQuery(t, "congress.getOverview", undefined, { token });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.data.attended).toEqual([congress.id]);
  });
});

afterAll(async () => {
  await t?.close();
});

describe("every table the overview reads announces its changes", () => {
  it("has change triggers for every kind of write on each table the overview's statements read", async () => {
    expect(await unannouncedWrites(t.db.pool, statements)).toEqual([]);
  });

  it("sees the overview's own statements (a lower bound, not the list checked above)", async () => {
    const tables = await tablesRead(t.db.pool, statements);
    expect(tables).toEqual(
      expect.arrayContaining(
        [
          "users",
          "participations",
          "congress_ticket_orders",
          "congress_package_orders",
          "package_unlocks",
          "attendances",
          "congresses",
          "congress_packages",
        ].map((table) => `public.${table}`),
      ),
    );
  });

  it("names a table whose trigger is missing", async () => {
    const client = await t.db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("DROP TRIGGER attendances_overview_insert ON attendances");
      expect(await unannouncedWrites(client, statements)).toEqual([
        `public.attendances: no INSERT trigger on ${OVERVIEW_CHANNEL}`,
      ]);
      await client.query("DROP TRIGGER congresses_overview_change ON congresses");
      expect(await unannouncedWrites(client, statements)).toEqual([
        `public.attendances: no INSERT trigger on ${OVERVIEW_CHANNEL}`,
        `public.congresses: no INSERT, DELETE, UPDATE, TRUNCATE trigger on ${OVERVIEW_CHANNEL}`,
      ]);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
    expect(await unannouncedWrites(t.db.pool, statements)).toEqual([]);
  });

  it("fails when no table is found, instead of passing without a check", async () => {
    expect(await unannouncedWrites(t.db.pool, [])).toEqual(["no table found in the 0 statements recorded"]);
    expect(await unannouncedWrites(t.db.pool, [{ text: "SELECT 1", values: [] }])).toEqual([
      "no table found in the 1 statements recorded",
    ]);
  });
});
