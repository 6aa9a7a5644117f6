import { schema } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/db/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { userFromJson } from "./user-rows";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.destroy();
});

it("reads a user sent as JSON (row_to_json) exactly as Drizzle reads the row", async () => {
  // every kind of column the sign-in reads: timestamps with and without a value, arrays, generated and
  // nullable columns
  const [created] = await db.db
    .insert(schema.users)
    .values({
      email: "Erika.Json@Example.com",
      firstname: "Erika",
      lastname: 'Ä\'Json "Test"',
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$abc$def",
      roles: ["ROLE_USER", "ROLE_ADMIN"],
      active: true,
      newsletter: true,
      newsletterConsentAt: new Date("2026-03-29T01:30:00.123Z"),
      emailConfirmedAt: new Date("2026-10-25T02:30:00.987Z"),
      sessionVersion: 3,
    })
    .returning({ id: schema.users.id });
  const id = created?.id ?? 0;
  const [drizzleRow] = await db.db.select().from(schema.users).where(eq(schema.users.id, id));
  const { rows } = await db.pool.query<{ json: Record<string, unknown> }>(
    "SELECT row_to_json(u) AS json FROM users u WHERE u.id = $1",
    [id],
  );
  const fromJson = userFromJson(rows[0]?.json ?? {});
  expect(fromJson).toEqual(drizzleRow);
  expect(fromJson.emailConfirmedAt).toBeInstanceOf(Date);
  expect(fromJson.roles).toEqual(["ROLE_USER", "ROLE_ADMIN"]);
  expect(fromJson.totpEnabledAt).toBeNull();
  // and every column is there: a column added later must not silently be missing
  const columns = await db.db.execute<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM information_schema.columns WHERE table_name = 'users'`,
  );
  expect(Object.keys(fromJson)).toHaveLength(columns.rows[0]?.count ?? -1);
});
