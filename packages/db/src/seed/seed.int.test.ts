import { addDays } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../password";
import { congresses, congressPackages, users } from "../schema";
import { createTestDatabase, type TestDatabase } from "../testing";
import { DEMO_LOGINS } from "./demo-data";
import { isEmpty, seedDemo } from "./seed";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function counts() {
  const result = await t.db.execute<Record<string, string>>(sql`
    SELECT (SELECT count(*) FROM users) AS users,
           (SELECT count(*) FROM congresses) AS congresses,
           (SELECT count(*) FROM congress_contents) AS contents,
           (SELECT count(*) FROM congress_packages) AS packages,
           (SELECT count(*) FROM participations) AS participations,
           (SELECT count(*) FROM congress_ticket_orders) AS ticket_orders,
           (SELECT count(*) FROM congress_package_orders) AS package_orders,
           (SELECT count(*) FROM mail_templates) AS mail_templates`);
  return result.rows[0];
}

describe("seedDemo", () => {
  it("is idempotent and moves the demo dates with today", async () => {
    expect(await isEmpty(t.db)).toBe(true);
    await seedDemo(t.db, "2026-11-22");
    const first = await counts();
    await seedDemo(t.db, "2026-11-25");
    expect(await counts()).toEqual(first);
    expect(await isEmpty(t.db)).toBe(false);

    const [running] = await t.db.select().from(congresses).where(eq(congresses.id, 4));
    expect(running?.firstDay).toBe(addDays("2026-11-25", -1));
  });

  it("creates the demo logins with working passwords and the special accounts", async () => {
    const rows = await t.db.select().from(users);
    const byEmail = new Map(rows.map((u) => [u.email, u]));
    const admin = byEmail.get(DEMO_LOGINS.admin.email);
    expect(admin?.admin).toBe(true);
    expect(await verifyPassword(admin?.passwordHash ?? "", DEMO_LOGINS.admin.password)).toBe(true);
    const participant = byEmail.get(DEMO_LOGINS.participant.email);
    expect(participant?.roles).toEqual(["ROLE_USER"]);
    expect(await verifyPassword(participant?.passwordHash ?? "", DEMO_LOGINS.participant.password)).toBe(
      true,
    );
    expect(rows.some((u) => !u.active)).toBe(true);
    expect(rows.some((u) => u.migrationHash !== null && u.passwordHash === null)).toBe(true);
  });

  it("seeds the two password-gated packages as ids 1 and 3 with their video counts", async () => {
    const result = await t.db.execute<{ id: number; videos: number[] }>(sql`
      SELECT p.id, array_agg(jsonb_array_length(d->'videos') ORDER BY ord) AS videos
      FROM ${congressPackages} p
      JOIN congress_contents c ON c.congress_id = p.congress_id
      CROSS JOIN LATERAL jsonb_array_elements(c.data->'days') WITH ORDINALITY AS x(d, ord)
      WHERE p.id IN (1, 3)
      GROUP BY p.id ORDER BY p.id`);
    expect(result.rows).toEqual([
      { id: 1, videos: [8, 7, 8] },
      { id: 3, videos: [6] },
    ]);
  });

  it("leaves the id sequences past the seeded rows", async () => {
    const [created] = await t.db
      .insert(congresses)
      .values({ title: "Neu", firstDay: "2026-12-01" })
      .returning();
    expect(created?.id).toBeGreaterThan(10);
  });
});
