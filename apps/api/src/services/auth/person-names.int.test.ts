import { schema } from "@app/db";
import { MSG_NAME } from "@app/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, trpcMutation } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/**
 * The name rule (ADR 0128) where a name is entered: registration (REST and tRPC) and the
 * admin's user dialog. The profile shows the name and changes none. Nothing refused reaches the database
 * or the outbox (so no registration mail carries it).
 */

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db.db, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const uniqueEmail = () => `name.${Date.now()}.${++counter}@example.com`;
let ipCounter = 0;
const ip = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function multipart(fields: Record<string, string>) {
  const boundary = "----names-boundary";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join("")}--${boundary}--\r\n`,
  };
}

const person = (email: string, names: { firstname?: string; lastname?: string }) => ({
  firstname: "Erika",
  lastname: "Muster",
  email,
  password: "sicheres-Passwort-1",
  dataProtection: true,
  newsletter: false,
  ...names,
});

const BAD = [
  ["bell", "Erika\u0007"],
  ["right-to-left override", "Er\u202Eika"],
  ["left-to-right isolate", "\u2066Erika\u2069"],
  ["emoji", "Erika 🎓"],
  ["symbol", "Erika™"],
] as const;

async function stored(email: string) {
  const rows = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
  const outbox = await t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toEmail, email));
  return { users: rows.length, mails: outbox.length };
}

describe("names at registration", () => {
  it.each(BAD)("refuses a name with a %s at /api/register/ with the field's message", async (_, name) => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/register/",
      remoteAddress: ip(),
      ...multipart({ user: JSON.stringify(person(email, { lastname: name })) }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toContain(MSG_NAME.invalid);
    expect(await stored(email)).toEqual({ users: 0, mails: 0 });
  });

  it.each(BAD)("refuses a name with a %s at auth.register, the message at the field", async (_, name) => {
    const email = uniqueEmail();
    const res = await trpcMutation(t, "auth.register", person(email, { firstname: name }), { ip: ip() });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.json.data.fieldErrors).toEqual({ firstname: [MSG_NAME.invalid] });
    expect(await stored(email)).toEqual({ users: 0, mails: 0 });
  });

  it("takes a name in Chinese, Korean or with a hyphen and apostrophe", async () => {
    for (const [firstname, lastname] of [
      ["小龍", "李"],
      ["민준", "김"],
      ["Anne-Marie", "O’Neill"],
    ]) {
      const email = uniqueEmail();
      const res = await trpcMutation(t, "auth.register", person(email, { firstname, lastname }), {
        ip: ip(),
      });
      expect(res.status, res.body).toBe(200);
      const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
      expect(row).toMatchObject({ firstname, lastname });
    }
  });
});

describe("names in the admin's user dialog", () => {
  it.each(BAD)("refuses a name with a %s at /api/user/, keeping the stored name", async (_, name) => {
    const user = await createUser(t.db.db, { firstname: "Vera", lastname: "Vorher" });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user/",
      headers: { authorization: `Bearer ${adminToken}`, ...multipart({}).headers },
      payload: multipart({
        userData: JSON.stringify({
          id: user.id,
          firstname: name,
          lastname: "Nachher",
          email: user.email,
          active: true,
          admin: false,
        }),
      }).payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toContain(MSG_NAME.invalid);
    const [row] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, user.id));
    expect(row).toMatchObject({ firstname: "Vera", lastname: "Vorher" });
  });

  it("refuses it at admin.users.save with the message at the field", async () => {
    const user = await createUser(t.db.db);
    const res = await trpcMutation(
      t,
      "admin.users.save",
      {
        id: user.id,
        firstname: "Vera",
        lastname: "Er\u202Eika",
        email: user.email,
        active: true,
        admin: false,
      },
      { token: adminToken },
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.json.data.fieldErrors).toEqual({ lastname: [MSG_NAME.invalid] });
  });
});
