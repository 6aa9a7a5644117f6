import { schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listUsers } from "../services/admin/users";
import { createTestApp, type TestApp } from "../testing/harness";
import { boundedCount } from "./paging";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.db.execute(sql`
    INSERT INTO users (email, firstname, lastname)
    SELECT 'viele.' || g || '@example.com', 'Viele', 'Nr. ' || g FROM generate_series(1, 1050) AS g`);
});
afterAll(async () => {
  await t?.close();
});

describe("boundedCount", () => {
  it("counts exactly below the cap and stops 1,000 rows past the page above it", async () => {
    const { users } = schema;
    expect(await boundedCount(t.db.db, users, eq(users.firstname, "Niemand"), 0)).toEqual({
      total: 0,
      exact: true,
    });
    expect(await boundedCount(t.db.db, users, undefined, 0)).toEqual({ total: 1_000, exact: false });
    // further back, counting reaches further, so the last page is exact again
    expect(await boundedCount(t.db.db, users, undefined, 100)).toEqual({ total: 1_050, exact: true });
  });

  it("gives the users table an exact total for a filter and 'at least' for the whole table", async () => {
    const all = await listUsers(t.db.db, { name: "", email: "", page: 1 });
    expect(all).toMatchObject({ total: 1_000, totalExact: false });
    expect(all.items).toHaveLength(10);
    const some = await listUsers(t.db.db, { name: "", email: "viele.1005@", page: 1 });
    expect(some).toMatchObject({ total: 1, totalExact: true });
    const last = await listUsers(t.db.db, { name: "", email: "", page: 105 });
    expect(last).toMatchObject({ total: 1_050, totalExact: true });
    expect(last.items).toHaveLength(10);
  });
});
