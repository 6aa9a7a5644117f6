import { randomBytes } from "node:crypto";
import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { ACCESS_TOKEN_LIFETIME_MS } from "@app/shared";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKey, signAccessToken } from "../credentials/access-token";
import { DEV_JWT_SECRET } from "../env";
import { createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

let t: TestApp;
let userId: number;
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  t = await createTestApp({ env: { JWT_SECRET: secret } });
  userId = (await createUser(t.db.db, { active: true })).id;
});
afterAll(async () => {
  await t?.close();
});

const overview = (token: string) =>
  t.app.inject({ url: "/trpc/congress.getOverview", headers: { authorization: `Bearer ${token}` } });
const sign = (claims: object, header: object, key = secretKey(secret)) =>
  new SignJWT({ ...claims }).setProtectedHeader(header as { alg: string }).sign(key);

describe("access tokens", () => {
  it("accepts a token signed with the configured secret", async () => {
    expect((await overview(await t.tokenFor(userId))).statusCode).toBe(200);
  });

  it("refuses alg none, another algorithm, another secret and the development secret", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(userId), roles: ["ROLE_USER"], iat: now, exp: now + 600 };
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    const tokens = [
      unsigned,
      `${b64({ alg: "none" })}.${b64(claims)}`,
      await sign(claims, { alg: "HS512" }),
      await sign(claims, { alg: "HS256" }, secretKey(randomBytes(32).toString("hex"))),
      (
        await signAccessToken(
          { id: userId, roles: ["ROLE_USER"], sessionVersion: 0, sessionId: "test-session" },
          secretKey(DEV_JWT_SECRET),
          Date.now(),
        )
      ).token,
    ];
    for (const token of tokens) {
      const res = await overview(token);
      expect(res.statusCode, token).toBe(401);
      expect(res.body).not.toContain("at ");
    }
  });

  it("refuses an expired token and one with forged claims", async () => {
    const expired = await signAccessToken(
      { id: userId, roles: ["ROLE_USER"], sessionVersion: 0, sessionId: "test-session" },
      secretKey(secret),
      Date.now() - ACCESS_TOKEN_LIFETIME_MS - 60_000,
    );
    expect((await overview(expired.token)).statusCode).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [
      { sub: "1 OR 1=1", roles: ["ROLE_USER"], exp: now + 600 },
      { sub: String(userId), roles: ["ROLE_SUPERUSER"], exp: now + 600 },
      { sub: String(userId), exp: now + 600 },
    ]) {
      expect((await overview(await sign(claims, { alg: "HS256" }))).statusCode, JSON.stringify(claims)).toBe(
        401,
      );
    }
  });

  it("a token claiming ROLE_ADMIN for a normal account opens no admin call", async () => {
    const forged = await t.tokenFor(userId, ["ROLE_USER", "ROLE_ADMIN"]);
    const res = await t.app.inject({ url: "/api/user/", headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(403);
  });

  it("a deactivated account loses the overview and cannot refresh its session", async () => {
    const email = `gesperrt.${randomBytes(4).toString("hex")}@example.com`;
    const user = await createUser(t.db.db, {
      email,
      active: true,
      passwordHash: await hashPassword("Passwort-1234"),
    });
    const token = await t.tokenFor(user.id);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: "Passwort-1234" },
    });
    expect(login.statusCode, login.body).toBe(200);
    const refreshToken = login.json().refreshToken as string;
    await t.db.db.update(schema.users).set({ active: false }).where(eq(schema.users.id, user.id));
    expect((await overview(token)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      payload: { refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
  });
});

describe("headers and CORS", () => {
  it("sends the security headers", async () => {
    const res = await t.app.inject("/");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-src https://player.vimeo.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    // HSTS only where the site is served over https (production)
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("closes CORS: other origins get no allow-origin header, not even for a preflight", async () => {
    const origin = "https://angreifer.example";
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/auth/login",
      headers: { origin, "access-control-request-method": "POST" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const get = await t.app.inject({ url: "/healthz", headers: { origin } });
    expect(get.headers["access-control-allow-origin"]).toBeUndefined();
    expect(get.headers["access-control-allow-credentials"]).toBeUndefined();
  });
});

describe("production", () => {
  it("sends HSTS", async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: "production",
        JWT_SECRET: randomBytes(32).toString("hex"),
        DIGISTORE_IPN_PASSPHRASE: randomBytes(16).toString("hex"),
        CERTIFICATE_SECRET: randomBytes(32).toString("hex"),
        GATED_PATH_COUPLE_THERAPY: "/geheim-a",
        GATED_PASSWORD_COUPLE_THERAPY: randomBytes(8).toString("hex"),
        GATED_PATH_DEATH_CONGRESS: "/geheim-b",
        GATED_PASSWORD_DEATH_CONGRESS: randomBytes(8).toString("hex"),
      },
    });
    try {
      const res = await prod.app.inject("/healthz");
      expect(res.headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
    } finally {
      await prod.close();
    }
  });
});
