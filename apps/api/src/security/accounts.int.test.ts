/**
 * The second security round on accounts (docs/security.md, "Second round"): sign-in limits that
 * hold under parallel guesses and hand out no lock-outs, sessions that end when they should, answers that
 * do not tell which addresses have accounts, and nothing personal left behind. Every test here failed on
 * the code before that round.
 */
import { randomBytes } from "node:crypto";
import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG } from "@app/shared";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../lib/tokens";
import { createUser, trpcMutation, trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

let t: TestApp;
const db = () => t.db.db;
const PASSWORD = "Konto-Passwort-2026";
let passwordHash: string;

beforeAll(async () => {
  t = await createTestApp({ mail: true });
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const unique = () => randomBytes(4).toString("hex");
let ipSeq = 0;
/** a client address of its own for each use: one test's limits never reach another */
const nextIp = () => `10.88.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function account(values: Partial<typeof schema.users.$inferInsert> = {}) {
  const email = values.email ?? `konto.${unique()}@example.com`;
  const user = await createUser(db(), { passwordHash, emailConfirmedAt: new Date(), ...values, email });
  return { ...user, email };
}

interface LoginOptions {
  password?: string;
  ip?: string;
  cookie?: string;
}
const login = (email: string, { password = PASSWORD, ip = "127.0.0.1", cookie }: LoginOptions = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress: ip,
    ...(cookie && { headers: { cookie } }),
  });

/** `name=value` of a cookie the answer sets */
function cookieOf(res: { headers: Record<string, unknown> }, name: string): string {
  const found = ([] as unknown[])
    .concat(res.headers["set-cookie"] ?? [])
    .map(String)
    .find((c) => c.startsWith(`${name}=`));
  return found?.split(";")[0] ?? "";
}

const refresh = (refreshToken: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/token/refresh", payload: { refreshToken } });

async function hitsOf(key: string): Promise<number | undefined> {
  const [row] = await db().select().from(schema.rateLimits).where(eq(schema.rateLimits.key, key));
  return row?.hits;
}

describe("sign-in limits: atomic (finding 1)", () => {
  it("16 parallel wrong passwords: exactly 10 are checked, 6 refused unchecked, then the right one is refused too", async () => {
    const { email } = await account();
    const ip = nextIp();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => login(email, { password: `falsch-${i}`, ip })),
    );
    const statuses = answers.map((res) => res.statusCode);
    // no other answer: parallel attempts on the same keys must not deadlock (500)
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(await hitsOf(`login:pair:${email}|${ip}`)).toBe(10);
    expect((await login(email, { ip })).statusCode).toBe(429);
  });

  it("a right password among parallel wrong ones is checked only within the limit", async () => {
    const { email } = await account();
    const ip = nextIp();
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => login(email, { password: `falsch-${i}`, ip })),
      login(email, { ip }),
    ]);
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((s) => s !== 200 && s !== 401 && s !== 429)).toEqual([]);
    // whatever the order: at most ten wrong passwords were tested; a right one tested gives its hit back,
    // so one more attempt may be tested after it
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(11);
  });

  it("a tRPC batch may not carry sign-ins with other calls, nor more than 20 calls", async () => {
    const { email } = await account();
    const input = { json: { email, password: "falsch" } };
    const batch = await t.app.inject({
      method: "POST",
      url: "/trpc/auth.login,auth.login?batch=1",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ 0: input, 1: input }),
    });
    expect(batch.statusCode).toBe(400);
    const answers = batch.json() as Array<{ error: { json: { data: { detail: string } } } }>;
    expect(answers).toHaveLength(2);
    expect(answers[0]?.error.json.data.detail).toBe(MSG.batchRefusedDetail);
    expect(await hitsOf(`login:account:${email}`)).toBeUndefined();

    const paths = Array.from({ length: 21 }, () => "legal.getPage").join(",");
    const inputs = Object.fromEntries(
      Array.from({ length: 21 }, (_, i) => [i, { json: { slug: "impressum" } }]),
    );
    const large = await t.app.inject(
      `/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`,
    );
    expect(large.statusCode).toBe(400);
    // an ordinary batch still works
    const two = Object.fromEntries([0, 1].map((i) => [i, { json: { slug: "impressum" } }]));
    const ordinary = await t.app.inject(
      `/trpc/legal.getPage,legal.getPage?batch=1&input=${encodeURIComponent(JSON.stringify(two))}`,
    );
    expect(ordinary.statusCode).toBe(200);
  });
});

describe("sign-in limits: no lock-outs (finding 2)", () => {
  it("one attacker's address reaches only its own limit: the owner signs in from elsewhere", async () => {
    const { email } = await account({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const attacker = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await login(email, { password: `falsch-${i}`, ip: attacker })).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    // the two refused attempts gave their hits back: they count towards no other limit
    expect(await hitsOf(`login:account:${email}`)).toBe(10);
    expect((await login(email, { ip: nextIp() })).statusCode).toBe(200);
  });

  it("a right password gives its hits back with the new session, on every way a sign-in ends", async () => {
    const { email } = await account();
    const ip = nextIp();
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push((await login(email, { ip })).statusCode);
    }
    // more than the per-address limit of 10: only failures stay counted
    expect(answers).toEqual(Array(12).fill(200));
    expect(await hitsOf(`login:pair:${email}|${ip}`)).toBe(0);
    expect(await hitsOf(`login:account:${email}`)).toBe(0);
    // a known device counts on its own key, and gives it back too
    const device = cookieOf(await login(email, { ip }), "known_device");
    const deviceId = /^known_device=([\w-]{22})\./.exec(device)?.[1];
    expect((await login(email, { ip, cookie: device })).statusCode).toBe(200);
    expect(await hitsOf(`login:device:${deviceId}`)).toBe(0);
    // an account that may not sign in yet: the right password is no failure either
    const unconfirmed = await account({ emailConfirmedAt: null, active: false });
    expect((await login(unconfirmed.email, { ip })).statusCode).toBe(403);
    expect(await hitsOf(`login:pair:${unconfirmed.email}|${ip}`)).toBe(0);
    // and a wrong one stays counted, on the address's keys and the client address's failures
    expect((await login(email, { ip, password: "falsch" })).statusCode).toBe(401);
    expect(await hitsOf(`login:pair:${email}|${ip}`)).toBe(1);
    expect(await hitsOf(`login:ip:${ip}`)).toBe(1);
  });

  it("many visitors behind one address sign in at the same moment: none is refused", async () => {
    const venue = nextIp();
    const visitors = await Promise.all(Array.from({ length: 150 }, () => account()));
    const answers = await Promise.all(visitors.map(({ email }) => login(email, { ip: venue })));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(150).fill(200));
  }, 120_000);

  it("one address guessing many accounts is stopped after 100 failures, whatever the accounts", async () => {
    const sprayer = nextIp();
    const targets = await Promise.all(Array.from({ length: 25 }, () => account()));
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        targets.map(({ email }) => login(email, { password: `falsch-${round}`, ip: sprayer })),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(25).fill(401));
    }
    const fresh = await account();
    expect((await login(fresh.email, { ip: sprayer })).statusCode).toBe(429);
    expect((await login(fresh.email, { ip: nextIp() })).statusCode).toBe(200);
  }, 120_000);

  it("many addresses together stop unknown devices only: the owner's known device and running session go on", async () => {
    const { email } = await account();
    const owner = await login(email, { ip: nextIp() });
    expect(owner.statusCode).toBe(200);
    const device = cookieOf(owner, "known_device");
    expect(device).toMatch(/^known_device=[\w-]{22}\.\d+\.[\w-]{43}$/);
    const { refreshToken } = owner.json();

    // ten addresses, ten wrong passwords each: the account's ceiling for unknown devices (100) is reached
    for (let n = 0; n < 10; n++) {
      const ip = nextIp();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login(email, { password: `falsch-${n}-${i}`, ip })),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(401));
    }
    expect((await login(email, { ip: nextIp() })).statusCode).toBe(429);

    // the owner's browser still signs in, from any address, and the running session refreshes
    expect((await login(email, { ip: nextIp(), cookie: device })).statusCode).toBe(200);
    expect((await refresh(refreshToken)).statusCode).toBe(200);

    // a device cookie of another account, or a changed one, is an unknown device
    const other = await account();
    const foreign = cookieOf(await login(other.email, { ip: nextIp() }), "known_device");
    expect((await login(email, { ip: nextIp(), cookie: foreign })).statusCode).toBe(429);
    const forged = device.replace(/\.(\d+)\./, (_, id) => `.${Number(id) + 1}.`);
    expect((await login(email, { ip: nextIp(), cookie: forged })).statusCode).toBe(429);
  }, 120_000);

  it("a password reset makes the browser a known device of the account", async () => {
    const { email, id } = await account();
    for (let n = 0; n < 10; n++) {
      const ip = nextIp();
      await Promise.all(Array.from({ length: 10 }, () => login(email, { password: "falsch", ip })));
    }
    const token = `reset-${unique()}-0123456789abcdef`;
    await db()
      .insert(schema.passwordResetTokens)
      .values({ userId: id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 60_000) });
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: "Neues-Passwort-77", passwordConfirm: "Neues-Passwort-77" },
      remoteAddress: nextIp(),
    });
    expect(reset.statusCode).toBe(200);
    const device = cookieOf(reset, "known_device");
    expect(device).not.toBe("");
    const ip = nextIp();
    expect((await login(email, { password: "Neues-Passwort-77", ip })).statusCode).toBe(429);
    expect((await login(email, { password: "Neues-Passwort-77", ip, cookie: device })).statusCode).toBe(200);
  }, 120_000);
});

describe("sessions end when they should (finding 4)", () => {
  const profile = (token: string) => trpcQuery(t, "account.getProfile", undefined, { token });

  it("a password reset spends every other reset link and ends every access and refresh token at once", async () => {
    const { email } = await account();
    const first = (await login(email, { ip: nextIp() })).json();
    const second = (await login(email, { ip: nextIp() })).json();
    expect((await profile(first.token)).status).toBe(200);

    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/resetPassword/", payload: { email } });
      expect(res.statusCode).toBe(200);
    }
    const links: string[] = [];
    for (let i = 0; i < 2; i++) {
      const mail = await t.smtp.waitFor(
        (m) =>
          m.to.includes(email) &&
          m.subject === "Passwort zurücksetzen" &&
          !links.some((token) => m.html.includes(token)),
      );
      links.push(mail.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "");
    }
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${links[0]}`,
      payload: { password: "Neues-Passwort-55", passwordConfirm: "Neues-Passwort-55" },
    });
    expect(reset.statusCode).toBe(200);

    expect((await t.app.inject(`/api/auth/resetPassword/validate/${links[1]}`)).json()).toEqual({
      valid: false,
    });
    for (const session of [first, second]) {
      expect((await profile(session.token)).status).toBe(401);
      expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    }
    const fresh = (await login(email, { password: "Neues-Passwort-55", ip: nextIp() })).json();
    expect((await profile(fresh.token)).status).toBe(200);
  });

  it("a deactivated account's access token opens nothing any more", async () => {
    const visitor = await account();
    const admin = await account({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const { token } = (await login(visitor.email, { ip: nextIp() })).json();
    const adminToken = (await login(admin.email, { ip: nextIp() })).json().token;
    const reads = ["account.export", "account.listConsents", "attendance.listMine"];
    for (const path of reads) {
      expect((await trpcQuery(t, path, undefined, { token })).status, path).toBe(200);
    }
    const off = await trpcMutation(
      t,
      "admin.users.setActive",
      { id: visitor.id, active: false },
      { token: adminToken },
    );
    expect(off.status).toBe(200);
    for (const path of reads) {
      expect((await trpcQuery(t, path, undefined, { token })).status, path).toBe(401);
    }
    const write = await trpcMutation(t, "account.setNewsletter", { newsletter: true }, { token });
    expect(write.status).toBe(401);
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, visitor.id));
    expect(row?.newsletter).toBe(false);
  });

  it("switching two-factor login on revokes the refresh tokens of before", async () => {
    const admin = await account({ roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const before = (await login(admin.email, { ip: nextIp() })).json();
    const other = (await login(admin.email, { ip: nextIp() })).json();
    const begun = await trpcMutation(t, "admin.twoFactor.begin", undefined, { token: before.token });
    const { TOTP, Secret } = await import("otpauth");
    const code = new TOTP({ secret: Secret.fromBase32(begun.data.secret) }).generate();
    const enabled = await trpcMutation(t, "admin.twoFactor.enable", { code }, { token: before.token });
    expect(enabled.status).toBe(200);
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    expect((await refresh(before.refreshToken)).statusCode).toBe(401);
    expect((await trpcQuery(t, "account.getProfile", undefined, { token: other.token })).status).toBe(401);
  });
});

describe("sessions end on every instance (finding 4, kept session states)", () => {
  let c: TestApp;
  let d: TestApp;
  beforeAll(async () => {
    const env = { SESSION_STATE_CACHE_MS: "60000" };
    c = await createTestApp({ env });
    d = await createTestApp({ env, sameDatabaseAs: c });
    await Promise.all([c.app.overviewCacheReady, d.app.overviewCacheReady]);
  });
  afterAll(async () => {
    await d?.close();
    await c?.close();
  });

  it("an account switched off on one instance is refused on the other within moments, a new token at once", async () => {
    const visitor = await createUser(c.db.db, { passwordHash, email: `inst.${unique()}@example.com` });
    const signIn = (app: TestApp) =>
      app.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: visitor.email, password: PASSWORD },
        remoteAddress: nextIp(),
      });
    const { token } = (await signIn(c)).json();
    // d reads the account's state once and keeps it
    expect((await trpcQuery(d, "account.getProfile", undefined, { token })).status).toBe(200);

    await c.db.db.update(schema.users).set({ active: false }).where(eq(schema.users.id, visitor.id));
    await expect
      .poll(async () => (await trpcQuery(d, "account.getProfile", undefined, { token })).status, {
        timeout: 3000,
      })
      .toBe(401);

    // a raised session version: the token issued after it works on the other instance straight away
    await c.db.db
      .update(schema.users)
      .set({ active: true, sessionVersion: sql`${schema.users.sessionVersion} + 1` })
      .where(eq(schema.users.id, visitor.id));
    const renewed = (await signIn(c)).json().token;
    expect((await trpcQuery(d, "account.getProfile", undefined, { token: renewed })).status).toBe(200);
    expect((await trpcQuery(d, "account.getProfile", undefined, { token })).status).toBe(401);
  });
});

describe("enumeration (finding 5)", () => {
  const confirm = (userId: number, hash: string) =>
    t.app.inject({ method: "POST", url: "/api/confirm-mail/", payload: { userId: String(userId), hash } });

  it("confirm-mail answers an unknown id exactly like a known one with a wrong link", async () => {
    const confirmed = await account();
    const unconfirmed = await account({ emailConfirmedAt: null, active: false });
    const wrong = "x".repeat(43);
    const answers = await Promise.all([
      confirm(2_000_000_000, wrong),
      confirm(confirmed.id, wrong),
      confirm(unconfirmed.id, wrong),
    ]);
    const shapes = answers.map((res) => ({ status: res.statusCode, body: res.json() }));
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    expect(shapes[0]?.status).toBe(400);
  });

  it("a genuine link used before still says the address is confirmed", async () => {
    const user = await account({ emailConfirmedAt: null, active: false });
    const token = `bestaetigung-${unique()}-0123456789`;
    await db()
      .insert(schema.emailConfirmationTokens)
      .values({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 60_000) });
    expect((await confirm(user.id, token)).json().detail).toBe(MSG.confirmMailSuccess);
    expect((await confirm(user.id, token)).json().detail).toBe(MSG.confirmMailAlready);
  });

  it("a reset request does the same work for a known and an unknown address: one job, the answer at once", async () => {
    const known = await account();
    const jobs = async () =>
      Number(
        (
          await db().execute<{ n: string }>(
            sql`SELECT count(*) AS n FROM pgboss.job WHERE name = 'deferred-mail'`,
          )
        ).rows[0]?.n,
      );
    const request = (email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/resetPassword/",
        payload: { email },
        remoteAddress: nextIp(),
      });
    const start = await jobs();
    const unknownAnswer = await request(`niemand.${unique()}@example.com`);
    expect(await jobs()).toBe(start + 1);
    const knownAnswer = await request(known.email);
    expect(await jobs()).toBe(start + 2);
    expect(knownAnswer.statusCode).toBe(unknownAnswer.statusCode);
    expect(knownAnswer.json()).toEqual(unknownAnswer.json());
    // the job mails the link afterwards
    await t.smtp.waitFor((m) => m.to.includes(known.email) && m.subject === "Passwort zurücksetzen");
  });
});

describe("leftovers (finding 6)", () => {
  it("deleting an account removes its own rate-limit rows only: `_` in an address is no wildcard", async () => {
    const domain = `${unique()}.example.com`;
    const doomed = await account({ email: `a_b@${domain}` });
    const neighbour = await account({ email: `a-b@${domain}` });
    const ip = nextIp();
    for (const email of [doomed.email, neighbour.email]) {
      await login(email, { password: "falsch", ip });
    }
    const { token } = (await login(doomed.email, { ip: nextIp() })).json();
    const deleted = await trpcMutation(t, "account.delete", { password: PASSWORD }, { token });
    expect(deleted.status).toBe(200);
    const left = await db()
      .select({ key: schema.rateLimits.key })
      .from(schema.rateLimits)
      .where(like(schema.rateLimits.key, `%${domain}%`));
    expect(left.map((row) => row.key).sort()).toEqual(
      [`login:account:${neighbour.email}`, `login:pair:${neighbour.email}|${ip}`].sort(),
    );
  });

  it("the outbox keeps a reset or confirmation link only until the mail is sent", async () => {
    const { email, id } = await account();
    await t.app.inject({
      method: "POST",
      url: "/api/auth/resetPassword/",
      payload: { email },
      remoteAddress: nextIp(),
    });
    const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject === "Passwort zurücksetzen");
    const token = mail.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "";
    expect(token).not.toBe("");
    await expect
      .poll(async () => {
        const rows = await db()
          .select({ status: schema.mailOutbox.status, variables: schema.mailOutbox.variables })
          .from(schema.mailOutbox)
          .where(
            and(
              eq(schema.mailOutbox.userId, id),
              inArray(schema.mailOutbox.templateName, ["password-reset"]),
            ),
          );
        return rows.map((row) => ({
          status: row.status,
          hasUrl: "url" in row.variables,
          token: JSON.stringify(row.variables).includes(token),
        }));
      })
      .toEqual([{ status: "sent", hasUrl: false, token: false }]);
  });
});
