import { schema } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedStatement } from "./prepared-statement";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.destroy();
});

describe("preparedStatement", () => {
  it("builds its statement once and runs each call with that call's values, the fixed ones as built", async () => {
    let builds = 0;
    const sum = preparedStatement<
      { a: number; label: string | null },
      { total: number; label: string | null }
    >((p) => {
      builds += 1;
      return sql`SELECT ${p.a}::int + ${40}::int AS total, ${p.label}::text AS label, ${p.a}::int AS again`;
    });
    expect(await sum(t.db, { a: 2, label: "zwei" })).toEqual({ total: 42, label: "zwei", again: 2 });
    expect(await sum(t.db, { a: -40, label: null })).toEqual({ total: 0, label: null, again: -40 });
    expect(builds).toBe(1);
  });

  it("is prepared on the server under one name per text", async () => {
    const one = preparedStatement<{ n: number }, { n: number }>((p) => sql`SELECT ${p.n}::int AS n`);
    const client = await t.db.$client.connect();
    try {
      // a single connection, so the statement prepared by the first call is the one the second finds
      const single = { $client: client } as unknown as TestDatabase["db"];
      await one(single, { n: 1 });
      await one(single, { n: 2 });
      const { rows } = await client.query<{ name: string; statement: string }>(
        "SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int AS n%'",
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toMatch(/^shape_[0-9a-f]{16}$/);
    } finally {
      client.release();
    }
  });

  it("fills a placeholder drizzle bound to a column (a query builder's values) through its encoder", async () => {
    const insert = preparedStatement<
      { email: string; at: Date },
      { email: string; email_confirmed_at: Date }
    >((p) =>
      t.db
        .insert(schema.users)
        .values({ email: p.email, firstname: "P", lastname: "H", emailConfirmedAt: p.at })
        .returning({ email: schema.users.email, confirmed: schema.users.emailConfirmedAt })
        .getSQL(),
    );
    const at = new Date("2026-11-28T09:00:00Z");
    const row = await insert(t.db, { email: "platzhalter@example.com", at });
    expect(row?.email).toBe("platzhalter@example.com");
    // the row as PostgreSQL names its columns: the statement is run by pg, not read back by drizzle
    expect(row?.email_confirmed_at?.toISOString()).toBe(at.toISOString());
  });

  it("refuses a call without a value for one of its placeholders", async () => {
    const one = preparedStatement<{ n: number }, { n: number }>((p) => sql`SELECT ${p.n}::int AS n`);
    await expect(one(t.db, {} as { n: number })).rejects.toThrow("no value for placeholder n");
  });
});
