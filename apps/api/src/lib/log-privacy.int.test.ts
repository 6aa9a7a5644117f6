import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digistoreSignature } from "../services/commerce/signature";
import { createCongress, multipart, trpcMutation, trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { maskUrls } from "./log-privacy";

/**
 * Every log line of the real app (trace level, the logger of app.ts) while the risky flows run: none of the
 * e-mail addresses, passwords, names, link hashes or tokens used may appear, in any encoding.
 */
const lines: string[] = [];
let t: TestApp;

const tag = randomBytes(4).toString("hex");
const secrets = new Set<string>();
/** a value that must never be logged; returned for use */
function secret<T extends string>(value: T): T {
  secrets.add(value);
  return value;
}

const email = secret(`erika.geheim.${tag}@example.com`);
const password = secret(`Geheimes-Passwort-${tag}`);
const wrongPassword = secret(`Falsches-Passwort-${tag}`);
const newPassword = secret(`Neues-Passwort-${tag}`);
// a name holds letters only (ADR 0128): the tag's hex digits as letters
const letters = tag.replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)] ?? "g");
const firstname = secret(`Friedhelmina${letters}`);
const lastname = secret(`Quastenberg${letters}`);
const metricsToken = secret(`metrics-token-${tag}-0123456789abcdef0123456789`);
/** the operators' metrics after the flows: no label may hold what the log must not */
let metricsText = "";

beforeAll(async () => {
  t = await createTestApp({
    mail: true,
    env: { LOG_LEVEL: "trace", METRICS_TOKEN: metricsToken },
    logStream: { write: (line) => lines.push(line) },
  });
  // an unexpected failure inside a request: a unique violation nobody catches (500 through the error handler)
  t.app.post("/api/test/unique-violation", async () => {
    await t.db.db.insert(schema.users).values({ email: email.toUpperCase(), firstname, lastname });
    return { unreachable: true };
  });
});
afterAll(async () => {
  await t?.close();
});

const ip = "203.0.113.77";
const registration = (user: Record<string, unknown>) => {
  const form = multipart({ user: JSON.stringify(user) });
  return { method: "POST" as const, url: "/api/register", remoteAddress: ip, ...form };
};
const account = (address: string) => ({
  firstname,
  lastname,
  email: address,
  password,
  dataProtection: true,
  newsletter: false,
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) {
      throw new Error(`${what}: not within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const output = () => lines.join("");

describe("log privacy", () => {
  it("runs the risky flows", { timeout: 120_000 }, async () => {
    // register, duplicate registration (a later one and a simultaneous pair, which waits on the address's
    // row), both answered like a new one
    expect((await t.app.inject(registration(account(email)))).statusCode).toBe(201);
    expect((await t.app.inject(registration(account(email.toUpperCase())))).statusCode).toBe(201);
    const twin = secret(`zwilling.${tag}@example.com`);
    const pair = await Promise.all([
      t.app.inject(registration(account(twin))),
      t.app.inject(registration(account(twin))),
    ]);
    expect(pair.map((r) => r.statusCode)).toEqual([201, 201]);

    // confirm through the mailed link: the web route (logged by the server) and the REST call
    const confirmation = await t.smtp.waitFor((m) => m.to.includes(email) && m.html.includes("confirm-mail"));
    const [link, userId, hash] = confirmation.html.match(/confirm-mail\/(\d+)\/([\w-]+)/) ?? [];
    secret(hash ?? "no hash in the mail");
    expect((await t.app.inject({ method: "GET", url: `/${link}/3/1` })).statusCode).toBe(404);
    const confirmed = await t.app.inject({
      method: "POST",
      url: "/api/confirm-mail",
      payload: { userId, hash },
    });
    expect(confirmed.statusCode).toBe(200);

    // login, failed login, refresh (REST and tRPC), an authorised call
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
      remoteAddress: ip,
    });
    expect(login.statusCode).toBe(200);
    const session = login.json() as { token: string; refreshToken: string };
    secret(session.token);
    secret(session.refreshToken);
    const failed = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: wrongPassword },
      remoteAddress: ip,
    });
    expect(failed.statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      payload: { refreshToken: session.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    secret((refreshed.json() as { refreshToken: string }).refreshToken);
    secret((refreshed.json() as { token: string }).token);
    const profile = await t.app.inject({
      url: "/api/account/profile",
      headers: { authorization: `Bearer ${session.token}`, cookie: `refresh=${session.refreshToken}` },
    });
    expect(profile.statusCode).toBe(200);

    // password reset: request, the web link, validation (REST and tRPC GET with the token in the query), reset
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/resetPassword", payload: { email } })).statusCode,
    ).toBe(200);
    const resetMail = await t.smtp.waitFor((m) => m.to.includes(email) && m.html.includes("resetPassword/"));
    const token = secret(resetMail.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "no token in the mail");
    await t.app.inject({ method: "GET", url: `/resetPassword/${token}` });
    expect((await t.app.inject({ url: `/api/auth/resetPassword/validate/${token}` })).json()).toEqual({
      valid: true,
    });
    expect((await trpcQuery(t, "auth.validateResetToken", { token })).data).toEqual({ valid: true });
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: newPassword, passwordConfirm: newPassword },
    });
    expect(reset.statusCode).toBe(200);

    // a certificate's public verification: the page's address and the lookup it makes carry the code
    const verificationCode = secret(randomBytes(18).toString("base64url"));
    await t.app.inject({ method: "GET", url: `/bescheinigung/${verificationCode}`, remoteAddress: ip });
    const verified = await trpcQuery(t, "certificate.verify", { code: verificationCode }, { ip });
    expect(verified.data).toEqual({ status: "unknown" });

    // a migrated account sets its first password from its link
    const migrationHash = secret(randomBytes(16).toString("hex"));
    const [migrated] = await t.db.db
      .insert(schema.users)
      .values({ email: secret(`alt.${tag}@example.com`), firstname, lastname, migrationHash, active: true })
      .returning({ id: schema.users.id });
    await t.app.inject({ method: "GET", url: `/migration/set-password/${migrated?.id}/${migrationHash}` });
    const form = multipart({
      userId: String(migrated?.id),
      hash: migrationHash,
      password,
      passwordConfirm: password,
    });
    const setPassword = await t.app.inject({
      method: "POST",
      url: "/api/migration/set-password",
      // @fastify/multipart logs the request headers at trace level
      headers: {
        ...form.headers,
        authorization: `Bearer ${session.token}`,
        cookie: `refresh=${session.refreshToken}`,
      },
      payload: form.payload,
    });
    expect(setPassword.statusCode).toBe(200);

    // a Digistore24 payment notification with the buyer's data, and a forged one
    const congress = await createCongress(t.db.db, {
      digistoreIdTicket: 880_000 + (Number.parseInt(tag, 16) % 1000),
    });
    const [buyer] = await t.db.db
      .select({ digistoreHash: schema.users.digistoreHash })
      .from(schema.users)
      .where(eq(schema.users.email, email));
    const fields = {
      event: "on_payment",
      order_id: `ORD-${tag}`,
      product_id: String(congress.digistoreIdTicket),
      transaction_id: `TX-${tag}`,
      email,
      buyer_email: email,
      buyer_first_name: secret(`Ipnvorname${tag}`),
      buyer_last_name: secret(`Ipnnachname${tag}`),
      address_street: secret(`Geheimstraße ${tag}`),
      custom: `uid-${secret(buyer?.digistoreHash ?? "no hash")}|pid-${congress.id}|cat-tic`,
    };
    const postIpn = (body: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/digistore/ipn",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(body).toString(),
      });
    const signed = { ...fields, sha_sign: digistoreSignature(fields, t.env.DIGISTORE_IPN_PASSPHRASE) };
    expect((await postIpn(signed)).statusCode).toBe(200);
    expect((await postIpn({ ...fields, sha_sign: "forged" })).statusCode).toBe(403);

    // the IPN storage fails inside the database with the buyer in the error message: a 500 with the payload
    // in Drizzle's query parameters
    await t.db.db.execute(
      sql.raw(`CREATE FUNCTION refuse_ipn() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'ipn refused for %', NEW.payload->>'email'; END $$;
        CREATE TRIGGER refuse_ipn BEFORE INSERT ON payment_notifications FOR EACH ROW EXECUTE FUNCTION refuse_ipn();`),
    );
    const again = { ...fields, order_id: `ORD-${tag}-2` };
    const broken = await postIpn({
      ...again,
      sha_sign: digistoreSignature(again, t.env.DIGISTORE_IPN_PASSPHRASE),
    });
    expect(broken.statusCode).toBe(500);
    await t.db.db.execute(
      sql.raw("DROP TRIGGER refuse_ipn ON payment_notifications; DROP FUNCTION refuse_ipn();"),
    );

    // a procedure fails inside the database (tRPC's "procedure failed" with the new user's row as parameters)
    const doomed = secret(`abgelehnt.${tag}@example.com`);
    await t.db.db.execute(
      sql.raw(`CREATE FUNCTION refuse_user() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'user refused: %', NEW.email; END $$;
        CREATE TRIGGER refuse_user BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION refuse_user();`),
    );
    const refused = await trpcMutation(t, "auth.register", account(doomed), { ip });
    expect(refused.status).toBe(500);
    await t.db.db.execute(sql.raw("DROP TRIGGER refuse_user ON users; DROP FUNCTION refuse_user();"));

    // an uncaught unique violation: PostgreSQL's detail names the address
    expect((await t.app.inject({ method: "POST", url: "/api/test/unique-violation" })).statusCode).toBe(500);

    // a mail the SMTP server refuses: its answer names the recipient
    const refusedRecipient = secret(`unzustellbar.${tag}@example.com`);
    t.smtp.refuse.add(refusedRecipient);
    expect((await t.app.inject(registration(account(refusedRecipient)))).statusCode).toBe(201);
    await until(() => output().includes("mail delivery failed"), "the failed delivery logged");

    // the operators' metrics: a scrape with a wrong token (refused) and with the right one
    const scrape = (token: string) =>
      t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${token}` } });
    expect((await scrape(secret(`falsches-metrics-token-${tag}`))).statusCode).toBe(401);
    const scraped = await scrape(metricsToken);
    expect(scraped.statusCode).toBe(200);
    metricsText = scraped.body;
  });

  it("logged all of it without any e-mail address, password, name, hash or token", () => {
    const text = output();
    expect(lines.length).toBeGreaterThan(50);
    const leaks: string[] = [];
    for (const value of secrets) {
      const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
      if (forms.some((form) => text.toLowerCase().includes(form.toLowerCase()))) {
        leaks.push(value);
      }
    }
    expect(leaks).toEqual([]);
    expect(text).not.toContain("$argon2");
    expect(text).not.toMatch(/Bearer |refresh=/i);
    // the metrics' labels are route patterns and outcomes, never values of a request
    const metricsLeaks = [...secrets].filter((value) =>
      metricsText.toLowerCase().includes(value.toLowerCase()),
    );
    expect(metricsLeaks).toEqual([]);
    expect(metricsText).toContain('route="/api/auth/resetPassword/validate/:token"');
    expect(metricsText).toContain('route="/trpc/auth.validateResetToken"');
  });

  it("still shows what happened: masked addresses, routes, statuses and error types", () => {
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const text = output();
    expect(text).toContain("***@example.com");
    const routes = entries.map((e) => (e.req as { route?: string } | undefined)?.route);
    expect(routes).toEqual(
      expect.arrayContaining([
        "/api/register",
        "/api/auth/login",
        "/api/auth/resetPassword/validate/:token",
        "/api/digistore/ipn",
      ]),
    );
    const urls = entries.map((e) => (e.req as { url?: string } | undefined)?.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        "/confirm-mail/***",
        "/resetPassword/***",
        "/migration/set-password/***",
        "/api/auth/resetPassword/reset/***",
        "/bescheinigung/***",
      ]),
    );
    expect(urls.some((url) => url?.startsWith("/trpc/auth.validateResetToken?input=***"))).toBe(true);
    expect(urls.some((url) => url?.startsWith("/trpc/certificate.verify?input=***"))).toBe(true);
    expect(
      entries.some((e) => (e.req as { remoteAddress?: string } | undefined)?.remoteAddress === "203.0.113.0"),
    ).toBe(true);
    expect(entries.some((e) => (e.res as { statusCode?: number } | undefined)?.statusCode === 500)).toBe(
      true,
    );

    // the retention catch-up at start-up logs its counts
    expect(entries.find((e) => e.msg === "privacy retention done")).toMatchObject({
      unconfirmedAccounts: expect.any(Number),
      refreshTokens: expect.any(Number),
    });

    const errors = entries.filter((e) => e.err !== undefined);
    const messages = errors.map((e) => e.msg);
    expect(messages).toEqual(
      expect.arrayContaining(["request failed", "procedure failed", "mail delivery failed"]),
    );
    const unique = errors.find((e) => JSON.stringify(e.err).includes("23505"));
    expect(JSON.stringify(unique?.err)).toContain("Key (lower(email))=(***@example.com) already exists");
    expect(JSON.stringify(errors)).toContain("DrizzleQueryError");
    expect(JSON.stringify(errors)).toContain("redacted]");
  });
});

describe("secret route parameters", () => {
  /** a link's token or hash, a certificate's verification code */
  const SECRET_PARAM = /token|hash|code/i;
  const fill = (name: string) => (SECRET_PARAM.test(name) ? `S3cret${name}` : "7");

  it("are masked for every API route that has one", () => {
    const patterns = [...new Set(t.app.routeList.map((route) => route.url))].filter((url) =>
      /:\w*(token|hash|code)/i.test(url),
    );
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      const url = pattern.replace(/:(\w+)/g, (_m, name: string) => fill(name));
      expect(maskUrls(url), pattern).not.toContain("S3cret");
    }
  });

  it("are masked for every web route that has one (the server logs these links too)", () => {
    const root = fileURLToPath(new URL("../../../web/src/routes", import.meta.url));
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (file) => file.endsWith(".tsx") && !file.includes("-components"),
    );
    const paths = files
      .map((file) => basename(file, ".tsx"))
      .filter((name) => !name.startsWith("_"))
      .map((name) => `/${name.split(".").join("/")}`)
      .filter((path) => /\$\w*(token|hash|code)/i.test(path));
    expect(paths).toContain("/bescheinigung/$code");
    expect(paths.length).toBeGreaterThanOrEqual(4);
    for (const path of paths) {
      const url = path.replace(/\{-\$(\w+)\}|\$(\w+)/g, (_m, a?: string, b?: string) => fill(a ?? b ?? ""));
      expect(maskUrls(url), path).not.toContain("S3cret");
    }
  });
});
