/**
 * The third security round (ADR 0090, docs/security.md "Third round"): the client address behind a proxy
 * that appends to X-Forwarded-For, IPv6 neighbours as one client, the owner's way in by mail while strangers
 * fill the account's limit, and no secrets left in failed mails. Each test failed on the code before.
 */
import { randomBytes } from "node:crypto";
import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MAIL_CATALOGUE } from "@app/mail";
import { MAIL_MAX_ATTEMPTS, MSG, MSG_OUTBOX } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "../env";
import { hashToken } from "../lib/tokens";
import { deliverOutboxMail } from "../mail-delivery/deliver";
import { queueMail } from "../mail-delivery/outbox";
import { createMailTransport } from "../mail-delivery/transport";
import { FRESH_LINKS } from "../services/auth/fresh-links";
import { queueResetMail } from "../services/auth/password";
import { adminAndVisitor, createUser, trpcMutation, trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { OWN_SECRETS } from "../testing/own-secrets";

const PASSWORD = "Konto-Passwort-2026";
let passwordHash: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await Promise.all(apps.map((t) => t.close()));
});

async function testApp(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const t = await createTestApp(...args);
  apps.push(t);
  return t;
}

const behindProxy = (TRUST_PROXY: string) => ({ env: { ...OWN_SECRETS, TRUST_PROXY } });

const unique = () => randomBytes(4).toString("hex");

async function account(t: TestApp) {
  const email = `konto.${unique()}@example.com`;
  const user = await createUser(t.db.db, { passwordHash, emailConfirmedAt: new Date(), email });
  return { ...user, email };
}

interface LoginOptions {
  password?: string;
  /** the address the connection comes from (the proxy's, or the client's without one) */
  from?: string;
  forwardedFor?: string;
  cookie?: string;
}
const login = (t: TestApp, email: string, options: LoginOptions = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: options.password ?? PASSWORD },
    remoteAddress: options.from ?? "127.0.0.1",
    headers: {
      ...(options.forwardedFor && { "x-forwarded-for": options.forwardedFor }),
      ...(options.cookie && { cookie: options.cookie }),
    },
  });

/** 10 wrong passwords, each from where `from(i)` says; returns the statuses */
async function wrongPasswords(
  t: TestApp,
  email: string,
  count: number,
  options: (i: number) => LoginOptions,
) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push((await login(t, email, { password: `falsch-${i}`, ...options(i) })).statusCode);
  }
  return statuses;
}

describe("the client address behind a proxy that appends (item 1)", () => {
  it("TRUST_PROXY=1: spoofed X-Forwarded-For entries land in the real client's limit", async () => {
    const t = await testApp(behindProxy("1"));
    const { email } = await account(t);
    // what nginx's $proxy_add_x_forwarded_for makes of a client at 203.0.113.9 that writes its own header
    const statuses = await wrongPasswords(t, email, 11, (i) => ({
      forwardedFor: `198.51.100.${i + 1}, 203.0.113.9`,
    }));
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    // another client behind the same proxy keeps its own limit
    expect((await login(t, email, { password: "falsch", forwardedFor: "203.0.113.10" })).statusCode).toBe(
      401,
    );
  });

  it("TRUST_PROXY as a list: only the listed proxies are believed, a chain of them is walked back", async () => {
    const t = await testApp(behindProxy("10.0.0.0/8,127.0.0.1"));
    const { email } = await account(t);
    // client 203.0.113.20 → proxy 10.1.2.3 → proxy 127.0.0.1 → API; the client wrote a spoofed entry
    const behindTwo = await wrongPasswords(t, email, 11, (i) => ({
      forwardedFor: `198.51.100.${i + 1}, 203.0.113.20, 10.1.2.3`,
    }));
    expect(behindTwo).toEqual([...Array<number>(10).fill(401), 429]);
    // a client that reaches the API directly is not believed at all: its own address counts
    const { email: other } = await account(t);
    const direct = await wrongPasswords(t, other, 11, (i) => ({
      from: "203.0.113.30",
      forwardedFor: `198.51.100.${i + 1}`,
    }));
    expect(direct).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it("TRUST_PROXY above 2: the start warns once in the log that it must equal the number of proxies", async () => {
    const lines: string[] = [];
    const t = await testApp({
      env: { ...OWN_SECRETS, TRUST_PROXY: "3", LOG_LEVEL: "warn" },
      logStream: { write: (line) => lines.push(line) },
    });
    expect((await t.app.inject("/healthz")).statusCode).toBe(200);
    const warnings = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.msg.startsWith("TRUST_PROXY"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, msg: expect.stringContaining("Zahl der Proxys") });
  });
});

describe("IPv6 neighbours are one client (item 2)", () => {
  it("addresses of one /64 share the per-address limit; another /64 has its own", async () => {
    const t = await testApp();
    const { email } = await account(t);
    const sameNet = await wrongPasswords(t, email, 10, (i) => ({
      from: `2001:db8:a:1::${(i + 1).toString(16)}`,
    }));
    expect(sameNet).toEqual(Array<number>(10).fill(401));
    expect((await login(t, email, { from: "2001:db8:a:1:ffff:1234:5678:9abc" })).statusCode).toBe(429);
    // the neighbouring /64 and an IPv4 client are other clients
    expect((await login(t, email, { from: "2001:db8:a:2::1" })).statusCode).toBe(200);
    expect((await login(t, email, { from: "192.0.2.44" })).statusCode).toBe(200);
  });

  it("an IPv4-mapped IPv6 address is its IPv4 address", async () => {
    const t = await testApp();
    const { email } = await account(t);
    const mixed = await wrongPasswords(t, email, 10, (i) => ({
      from: i % 2 === 0 ? "192.0.2.55" : "::ffff:192.0.2.55",
    }));
    expect(mixed).toEqual(Array<number>(10).fill(401));
    expect((await login(t, email, { from: "192.0.2.55" })).statusCode).toBe(429);
    expect((await login(t, email, { from: "::ffff:192.0.2.56" })).statusCode).toBe(200);
  });

  it("the failures of one /64 over many accounts are counted together (100)", async () => {
    const t = await testApp();
    // ten at a time: a failure is counted after it happened, so no batch passes the limit
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          login(t, `niemand.${unique()}@example.com`, {
            password: "falsch",
            from: `2001:db8:b:7:${(batch * 10 + j).toString(16)}::1`,
          }),
        ),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array<number>(10).fill(401));
    }
    const { email } = await account(t);
    expect((await login(t, email, { from: "2001:db8:b:7::beef" })).statusCode).toBe(429);
    expect((await login(t, email, { from: "2001:db8:b:8::beef" })).statusCode).toBe(200);
  }, 60_000);
});

describe("no secrets in failed mails (item 4)", { timeout: 60_000 }, () => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await testApp({ mail: true });
    ({ adminToken } = await adminAndVisitor(t));
  });

  const rowOf = async (id: number) => {
    const [row] = await t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.id, id));
    return row;
  };

  /** Delivery refused until the mail is given up, as the worker's retries would end. */
  async function giveUp(id: number, to: string): Promise<void> {
    t.smtp.refuse.add(to.toLowerCase());
    const transport = createMailTransport(t.smtp.url);
    try {
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
        await expect(
          deliverOutboxMail({ db: t.db.db, clock: t.clock }, transport, t.env.MAIL_FROM, id, t.env.APP_URL),
        ).rejects.toThrow();
      }
    } finally {
      transport.close();
      t.smtp.refuse.delete(to.toLowerCase());
    }
  }

  it("a reset mail given up keeps no link; the admin's resend mails a fresh, working one", async () => {
    const user = await account(t);
    const id = await queueResetMail(
      t.db.db,
      { appUrl: t.env.APP_URL, now: new Date() },
      user,
      "password-reset",
    );
    if (id === null) {
      throw new Error("not queued");
    }
    const firstLink = String((await rowOf(id))?.variables.url);
    expect(firstLink).toMatch(/\/resetPassword\//);
    await giveUp(id, user.email);
    const failed = await rowOf(id);
    expect(failed?.status).toBe("failed");
    expect(failed?.variables).not.toHaveProperty("url");
    expect(failed?.variables).toHaveProperty("userFullName");

    const resent = await trpcMutation(t, "admin.mailOutbox.resend", { id }, { token: adminToken });
    expect(resent.status, resent.body).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email), 20_000);
    const token = /\/resetPassword\/([\w-]+)/.exec(mail.html)?.[1];
    expect(token).toBeDefined();
    expect(firstLink.endsWith(`/${token}`)).toBe(false);
    const reset = await trpcMutation(
      t,
      "auth.resetPassword",
      { token, password: "Ganz-neues-Passwort-1", passwordConfirm: "Ganz-neues-Passwort-1" },
      { ip: "192.0.2.200" },
    );
    expect(reset.status, reset.body).toBe(200);
  });

  it("a confirmation mail given up is resent with a new confirmation link, unless the address is confirmed by then", async () => {
    const user = await createUser(t.db.db, {
      email: `neu.${unique()}@example.com`,
      active: false,
      emailConfirmedAt: null,
    });
    const id = await queueMail(t.db.db, {
      templateName: "registration-confirmation",
      to: user.email,
      userId: user.id,
      variables: { userFullName: "Neu", url: "http://app.test/confirm-mail/1/alt" },
      idempotencyKey: `third-round:${unique()}`,
    });
    if (id === null) {
      throw new Error("not queued");
    }
    await giveUp(id, user.email);
    expect((await rowOf(id))?.variables).not.toHaveProperty("url");
    const resent = await trpcMutation(t, "admin.mailOutbox.resend", { id }, { token: adminToken });
    expect(resent.status, resent.body).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email), 20_000);
    const link = /\/confirm-mail\/(\d+)\/([\w-]+)/.exec(mail.html);
    expect(link?.[1]).toBe(String(user.id));
    const confirmed = await trpcMutation(t, "auth.confirmMail", { userId: user.id, hash: link?.[2] });
    expect(confirmed.status, confirmed.body).toBe(200);

    // the same mail given up again after the address was confirmed: nothing to renew
    await t.db.db
      .update(schema.mailOutbox)
      .set({ status: "queued", attempts: 0 })
      .where(eq(schema.mailOutbox.id, id));
    await giveUp(id, user.email);
    const refused = await trpcMutation(t, "admin.mailOutbox.resend", { id }, { token: adminToken });
    expect(refused.status).toBe(409);
    expect(refused.error?.detail).toBe(MSG_OUTBOX.linkGone);
    expect((await rowOf(id))?.status).toBe("failed");
  });

  it("every catalogue mail with a secret names it `url` and has a way to a fresh link", () => {
    for (const mail of Object.values(MAIL_CATALOGUE)) {
      if ((mail.secretVariables ?? []).length > 0) {
        expect(mail.secretVariables, mail.name).toEqual(["url"]);
        expect(FRESH_LINKS[mail.name], mail.name).toBeDefined();
      }
    }
  });
});

describe("the owner is never locked out: a sign-in link by mail (item 3)", { timeout: 120_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ mail: true });
  });

  /** A browser: its address and the cookies the API set in it. */
  function browser(ip: string) {
    const jar = new Map<string, string>();
    const call = async (path: string, input: unknown) => {
      const res = await t.app.inject({
        method: "POST",
        url: `/trpc/${path}`,
        headers: {
          "content-type": "application/json",
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        },
        payload: JSON.stringify({ json: input }),
        remoteAddress: ip,
      });
      for (const cookie of ([] as unknown[]).concat(res.headers["set-cookie"] ?? []).map(String)) {
        const [pair = ""] = cookie.split(";");
        const [name = "", value = ""] = pair.split("=");
        jar.set(name, value);
      }
      const body = JSON.parse(res.body);
      return { status: res.statusCode, data: body.result?.data?.json, error: body.error?.json?.data, jar };
    };
    return { call, jar };
  }

  /** A stranger guesses the account's password from ten addresses until every unknown device is refused. */
  async function burn(email: string): Promise<void> {
    for (let net = 0; net < 10; net++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          login(t, email, { password: `rate-${i}`, from: `198.18.${net}.${i + 1}` }),
        ),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array<number>(10).fill(401));
    }
  }

  async function linkFromMail(email: string, after = 0): Promise<string> {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(email) && m.subject === "Ihr Anmeldelink" && t.smtp.mails.indexOf(m) >= after,
      20_000,
    );
    const token = /\/login-link\/([\w-]+)/.exec(mail.html)?.[1];
    expect(token).toBeDefined();
    return token ?? "";
  }

  it("strangers fill the account's limit; the owner on a new browser gets in by the mailed link, once", async () => {
    const owner = await account(t);
    await burn(owner.email);
    const phone = browser("203.0.113.77");
    const refused = await phone.call("auth.login", { email: owner.email, password: PASSWORD });
    expect(refused.status).toBe(429);

    const asked = await phone.call("auth.requestSignInLink", { email: owner.email });
    const unknown = await browser("203.0.113.78").call("auth.requestSignInLink", {
      email: `niemand.${unique()}@example.com`,
    });
    expect(asked.status).toBe(200);
    expect(unknown).toMatchObject({ status: 200, data: asked.data });
    expect(asked.data.detail).toBe(MSG.signInLinkSent);

    const token = await linkFromMail(owner.email);
    // stored hashed, and the outbox gives the link up once sent
    const [stored] = await t.db.db
      .select()
      .from(schema.signInLinks)
      .where(eq(schema.signInLinks.userId, owner.id));
    expect(stored?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const signedIn = await phone.call("auth.signInWithLink", { token });
    expect(signedIn.status, JSON.stringify(signedIn.error)).toBe(200);
    expect(signedIn.data.user.email).toBe(owner.email);
    expect(phone.jar.get("refresh_token")).toBeTruthy();
    expect(phone.jar.get("known_device")).toBeTruthy();
    // the session works: its access token opens the account, its refresh token renews it
    const profile = await trpcQuery(t, "account.getProfile", undefined, { token: signedIn.data.token });
    expect(profile.status, profile.body).toBe(200);
    const overview = await trpcQuery(t, "congress.getOverview", undefined, { token: signedIn.data.token });
    expect(overview.status, overview.body).toBe(200);
    expect((await phone.call("auth.refresh", {})).status).toBe(200);
    // a known device now: the password works there again, while unknown devices stay refused
    expect((await phone.call("auth.login", { email: owner.email, password: PASSWORD })).status).toBe(200);
    expect(
      (await browser("203.0.113.79").call("auth.login", { email: owner.email, password: PASSWORD })).status,
    ).toBe(429);

    const again = await browser("203.0.113.80").call("auth.signInWithLink", { token });
    expect(again.status).toBe(400);
    expect(again.error.detail).toBe(MSG.signInLinkInvalid);
  });

  it("a link expires after 15 minutes and is spent by a password change", async () => {
    const owner = await account(t);
    const before = t.smtp.mails.length;
    await browser("203.0.113.81").call("auth.requestSignInLink", { email: owner.email });
    const old = await linkFromMail(owner.email, before);
    await t.db.db
      .update(schema.signInLinks)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(schema.signInLinks.tokenHash, hashToken(old)));
    expect((await browser("203.0.113.81").call("auth.signInWithLink", { token: old })).status).toBe(400);

    const next = t.smtp.mails.length;
    await browser("203.0.113.82").call("auth.requestSignInLink", { email: owner.email });
    const fresh = await linkFromMail(owner.email, next);
    const [link] = await t.db.db
      .select()
      .from(schema.signInLinks)
      .where(eq(schema.signInLinks.tokenHash, hashToken(fresh)));
    expect(link?.expiresAt.getTime() ?? 0).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    expect(link?.expiresAt.getTime() ?? 0).toBeGreaterThan(Date.now() + 14 * 60_000);
    const resetMail = await queueResetMail(
      t.db.db,
      { appUrl: t.env.APP_URL, now: new Date() },
      owner,
      "password-reset",
    );
    const [row] = await t.db.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.id, resetMail ?? 0));
    const resetToken = String(row?.variables.url).split("/").pop();
    const reset = await browser("203.0.113.83").call("auth.resetPassword", {
      token: resetToken,
      password: "Noch-ein-Passwort-2",
      passwordConfirm: "Noch-ein-Passwort-2",
    });
    expect(reset.status, JSON.stringify(reset.error)).toBe(200);
    expect((await browser("203.0.113.84").call("auth.signInWithLink", { token: fresh })).status).toBe(400);
  });

  it("asking for links is limited per address (3) whether the account exists or not", async () => {
    const owner = await account(t);
    const nobody = `niemand.${unique()}@example.com`;
    for (const email of [owner.email, nobody]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await browser(`203.0.113.${90 + i}`).call("auth.requestSignInLink", { email })).status,
        );
      }
      expect(statuses, email).toEqual([200, 200, 200, 429]);
    }
  });

  it("an account with two-factor login still asks for its second factor after the link", async () => {
    const admin = await createUser(t.db.db, {
      passwordHash,
      emailConfirmedAt: new Date(),
      roles: ["ROLE_USER", "ROLE_ADMIN"],
    });
    const auth = { token: await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]), ip: "192.0.2.150" };
    const begun = await trpcMutation(t, "admin.twoFactor.begin", undefined, auth);
    const secret: string = begun.data.secret;
    // `steps` time steps ahead: the server takes one step either side, and never a step twice
    const code = (steps: number) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
    expect((await trpcMutation(t, "admin.twoFactor.enable", { code: code(0) }, auth)).status).toBe(200);
    // the account's budget over unknown devices used up, as the strangers of the first test did by guessing
    await t.db.db
      .insert(schema.rateLimits)
      .values({ key: `login:account:${admin.email}`, windowStart: new Date(), hits: 100 });
    expect((await login(t, admin.email, { from: "203.0.113.119" })).statusCode).toBe(429);

    const laptop = browser("203.0.113.120");
    const before = t.smtp.mails.length;
    await laptop.call("auth.requestSignInLink", { email: admin.email });
    const token = await linkFromMail(admin.email, before);
    const step = await laptop.call("auth.signInWithLink", { token });
    expect(step.status).toBe(200);
    expect(step.data).toHaveProperty("challenge");
    expect(step.data).not.toHaveProperty("token");
    expect(laptop.jar.get("refresh_token")).toBeUndefined();
    const wrong = await laptop.call("auth.loginTwoFactor", {
      challenge: step.data.challenge,
      code: "000000",
    });
    expect(wrong.status).toBe(401);
    const done = await laptop.call("auth.loginTwoFactor", { challenge: step.data.challenge, code: code(1) });
    expect(done.status, JSON.stringify(done.error)).toBe(200);
    expect(done.data.user.email).toBe(admin.email);
  });
});

describe("/.well-known/security.txt (item 5)", () => {
  it("names the configured contacts with the fields of RFC 9116, Expires less than a year ahead", async () => {
    const t = await testApp({
      env: {
        SECURITY_CONTACT: "sicherheit@example.com, https://example.com/sicherheit",
        APP_URL: "https://kongress.example/",
      },
    });
    const res = await t.app.inject({ method: "GET", url: "/.well-known/security.txt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const fields = res.body
      .trim()
      .split("\n")
      .map((line) => line.split(": "));
    expect(fields.filter(([name]) => name === "Contact").map(([, value]) => value)).toEqual([
      "mailto:sicherheit@example.com",
      "https://example.com/sicherheit",
    ]);
    const expires = Date.parse(fields.find(([name]) => name === "Expires")?.[1] ?? "");
    expect(expires).toBeGreaterThan(Date.now() + 150 * 86_400_000);
    expect(expires).toBeLessThan(Date.now() + 365 * 86_400_000);
    expect(res.body).toContain("Canonical: https://kongress.example/.well-known/security.txt\n");
    expect(res.body).toContain("Preferred-Languages: de, en\n");
  });

  it("answers 404 without a contact, and refuses a contact that is no address", async () => {
    const t = await testApp();
    expect((await t.app.inject({ method: "GET", url: "/.well-known/security.txt" })).statusCode).toBe(404);
    expect(() => loadEnv({ SECURITY_CONTACT: "javascript:alert(1)" })).toThrow(
      /SECURITY_CONTACT: E-Mail-Adressen/,
    );
  });
});
