import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG_EFN } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCongress, createUser, ticketOrder, trpcMutation, trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

/** ADR 0114: the EFN in the profile, its export and its deletion with the account. */

let t: TestApp;
const PASSWORD = "sicheres-Passwort-1";
let passwordHash: string;
// check digits worked out by hand in packages/shared/src/efn.test.ts
const EFN = "802760901234566";
const OTHER_EFN = "802760010000015";

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 0;
const ip = () => `10.34.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function visitor(values: Partial<typeof schema.users.$inferInsert> = {}) {
  const user = await createUser(t.db.db, { passwordHash, emailConfirmedAt: new Date(), ...values });
  return { user, token: await t.tokenFor(user.id) };
}
const setEfn = (token: string, efn: unknown) =>
  trpcMutation(t, "account.setEfn", { efn }, { token, ip: ip() });
const storedEfn = async (userId: number) =>
  (await t.db.db.select({ efn: schema.users.efn }).from(schema.users).where(eq(schema.users.id, userId)))[0]
    ?.efn;

describe("account.setEfn", () => {
  it("saves the digits of a formatted EFN, shows it in the profile, and clears it when empty", async () => {
    const { user, token } = await visitor();
    expect((await trpcQuery(t, "account.getProfile", undefined, { token })).data.efn).toBeNull();

    const saved = await setEfn(token, "80 276 090 123456 6");
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual({ efn: EFN, detail: MSG_EFN.saved });
    expect(await storedEfn(user.id)).toBe(EFN);
    expect((await trpcQuery(t, "account.getProfile", undefined, { token })).data.efn).toBe(EFN);

    const cleared = await setEfn(token, "  ");
    expect(cleared.data).toEqual({ efn: null, detail: MSG_EFN.cleared });
    expect(await storedEfn(user.id)).toBeNull();
  });

  it.each([
    ["802760901234567", MSG_EFN.checkDigit],
    ["802760902134566", MSG_EFN.checkDigit],
    ["80276090123456", MSG_EFN.length(14)],
    ["8027609012345660", MSG_EFN.length(16)],
    ["80276O901234566", MSG_EFN.notDigits],
  ])(
    "refuses %s with 400 and the German message at the field, keeping the stored EFN",
    async (input, message) => {
      const { user, token } = await visitor({ efn: OTHER_EFN });
      const res = await setEfn(token, input);
      expect(res.status).toBe(400);
      expect(res.error?.detail).toBe(message);
      const data = JSON.parse(res.body).error.json.data;
      expect(data.fieldErrors).toEqual({ efn: [message] });
      expect(data.stack).toBeNull();
      expect(res.body).not.toMatch(/\.ts:\d+/);
      expect(await storedEfn(user.id)).toBe(OTHER_EFN);
    },
  );

  it("refuses anonymous callers", async () => {
    const res = await trpcMutation(t, "account.setEfn", { efn: EFN }, { ip: ip() });
    expect(res.status).toBe(401);
  });

  it("changes only the caller's own row; nobody else's EFN reaches the caller", async () => {
    const other = await visitor({ efn: OTHER_EFN });
    const { user, token } = await visitor();
    // an id in the input is no part of the schema and changes nothing
    const res = await trpcMutation(
      t,
      "account.setEfn",
      { efn: EFN, userId: other.user.id },
      { token, ip: ip() },
    );
    expect(res.status).toBe(200);
    expect(await storedEfn(user.id)).toBe(EFN);
    expect(await storedEfn(other.user.id)).toBe(OTHER_EFN);
    for (const path of ["account.getProfile", "account.export"]) {
      const answer = await trpcQuery(t, path, undefined, { token });
      expect(answer.body).toContain(EFN);
      expect(answer.body).not.toContain(OTHER_EFN);
    }
  });
});

describe("the EFN in the data export and the account deletion", () => {
  it("is part of the data export", async () => {
    const { token } = await visitor({ efn: EFN });
    const res = await trpcQuery(t, "account.export", undefined, { token });
    expect(res.data.account.efn).toBe(EFN);
  });

  it("goes with an account without orders", async () => {
    const { user, token } = await visitor({ efn: EFN });
    const res = await trpcMutation(t, "account.delete", { password: PASSWORD }, { token, ip: ip() });
    expect(res.status).toBe(200);
    expect(await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id))).toEqual([]);
  });

  it("is blanked on an account kept for its orders", async () => {
    const { user, token } = await visitor({ efn: EFN });
    const congress = await createCongress(t.db.db);
    await ticketOrder(t.db.db, user.id, congress.id, "paid");
    const res = await trpcMutation(t, "account.delete", { password: PASSWORD }, { token, ip: ip() });
    expect(res.status).toBe(200);
    const [row] = await t.db.db
      .execute<{ u: string }>(sql`SELECT to_jsonb(u)::text AS u FROM users u WHERE id = ${user.id}`)
      .then((r) => r.rows);
    expect(row?.u).toBeDefined();
    expect(row?.u).not.toContain(EFN);
    expect(await storedEfn(user.id)).toBeNull();
  });
});

describe("the privacy page", () => {
  it("says by default what the EFN is stored for, that it is voluntary, and when it goes", async () => {
    const page = await trpcQuery(t, "legal.getPage", { slug: "datenschutz" });
    expect(page.data.html).toContain(
      "Ihre Einheitliche Fortbildungsnummer (EFN) speichern wir nur, wenn Sie sie angeben",
    );
    expect(page.data.html).toContain("Meldung Ihrer Punkte an die Kammer (Art. 6 Abs. 1 lit. b DSGVO)");
  });
});
