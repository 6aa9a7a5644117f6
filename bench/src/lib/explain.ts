import { type Db, schema } from "@app/db";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";

interface Statement {
  text: string;
  values: unknown[];
}

interface Plan {
  statement: Statement;
  executionMs: number;
  plan: string;
}

const plannable = (s: Statement) => /^\s*(select|insert|update|delete|with)\b/i.test(s.text);

/** The SQL text and parameters of a `pool.query(text | config, values?)` call. */
function statementOf(args: unknown[]): Statement | undefined {
  const [first, second] = args;
  if (typeof first === "string") {
    return { text: first, values: Array.isArray(second) ? second : [] };
  }
  if (first && typeof first === "object" && "text" in first && typeof first.text === "string") {
    const values = Array.isArray(second)
      ? second
      : "values" in first && Array.isArray(first.values)
        ? first.values
        : [];
    return { text: first.text, values };
  }
  return undefined;
}

/**
 * A one-connection pool that records every statement sent through `pool.query` (Drizzle's queries and the
 * hand-written ones on `db.$client` alike). One connection, so BEGIN and ROLLBACK wrap everything it runs.
 */
function recordingPool(url: string): { pool: pg.Pool; statements: Statement[] } {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  const statements: Statement[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const statement = statementOf(args);
    if (statement && plannable(statement)) {
      statements.push(statement);
    }
    return query(...args);
  }) as typeof pool.query;
  return { pool, statements };
}

/** EXPLAIN (ANALYZE, BUFFERS) with the recorded parameters, rolled back (ANALYZE executes a delete). */
async function explain(client: pg.PoolClient, statement: Statement): Promise<Plan> {
  await client.query("BEGIN");
  try {
    const result = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
      statement.values,
    );
    const plan = result.rows.map((row) => row["QUERY PLAN"]).join("\n");
    const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
    return { statement, executionMs, plan };
  } finally {
    await client.query("ROLLBACK");
  }
}

/**
 * Runs `run` twice against a recording Drizzle instance, inside a transaction that is rolled back (so a
 * delete leaves its victim for the EXPLAIN), then explains every statement of the second call and returns
 * the plan of the slowest with its SQL and parameters, plus the time all of them took in PostgreSQL: the
 * evidence for a broken budget (a median far above that total was spent outside the database). Only for
 * functions that open no transaction of their own.
 */
export async function explainSlowest(url: string, run: (db: Db) => Promise<unknown>): Promise<string> {
  const { pool, statements } = recordingPool(url);
  try {
    const db = drizzle({ client: pool, schema });
    await pool.query("BEGIN");
    try {
      // the first call fills caches (as the timed calls had them filled); only the second is recorded
      await run(db);
      statements.length = 0;
      await run(db);
    } finally {
      await pool.query("ROLLBACK");
    }
    const client = await pool.connect();
    const plans: Plan[] = [];
    try {
      for (const statement of statements) {
        plans.push(await explain(client, statement));
      }
    } finally {
      client.release();
    }
    const slowest = plans.reduce<Plan | undefined>(
      (a, b) => (a && a.executionMs >= b.executionMs ? a : b),
      undefined,
    );
    if (!slowest) {
      return "no SQL statement recorded";
    }
    const totalMs = plans.reduce((sum, p) => sum + p.executionMs, 0);
    return [
      `${plans.length} statement(s), ${totalMs.toFixed(1)} ms in PostgreSQL together; the slowest, ${slowest.executionMs.toFixed(1)} ms:`,
      slowest.statement.text.replace(/\s+/g, " ").trim(),
      `params: ${JSON.stringify(slowest.statement.values)}`,
      slowest.plan,
    ].join("\n");
  } finally {
    await pool.end();
  }
}
