import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { MSG } from "@app/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app";
import { loadEnv } from "./env";
import { storeImage } from "./services/admin/images";
import { createUser } from "./testing/builders";
import { createTestApp, type TestApp } from "./testing/harness";

let t: TestApp;
let userId: number;
let webDist: string;

beforeAll(async () => {
  webDist = await mkdtemp(join(tmpdir(), "web-dist-"));
  await mkdir(join(webDist, "assets"));
  await writeFile(join(webDist, "index.html"), '<!doctype html><html lang="de"><body>APP</body></html>');
  await writeFile(join(webDist, "assets", "index-abc123.js"), "console.log(1)");
  t = await createTestApp({ webDistDir: webDist });
  const [user] = await t.db.db
    .insert(schema.users)
    .values({
      email: "Profil@Example.com",
      firstname: "Pia",
      lastname: "Profil",
      active: true,
      passwordHash: "secret-hash",
    })
    .returning();
  userId = user?.id ?? 0;
});

afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe("health", () => {
  it("answers /healthz and /readyz while the database is reachable", async () => {
    expect((await t.app.inject("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await t.app.inject("/readyz");
    expect(ready.statusCode).toBe(200);
  });

  it("answers /readyz with 503 and {title, detail} when the database is not reachable", async () => {
    const dead = createDb("postgres://nobody:x@127.0.0.1:1/none", { max: 1 });
    const app = await buildApp({
      env: loadEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
      db: dead.db,
      mail: { dispatch: async () => {}, defer: async () => {} },
    });
    try {
      const res = await app.inject("/readyz");
      expect(res.statusCode).toBe(503);
      expect(Object.keys(res.json()).sort()).toEqual(["detail", "title"]);
    } finally {
      await app.close();
      await dead.close();
    }
  });
});

describe("REST error shape", () => {
  it("answers 401 with the German {title, detail} without a token", async () => {
    const res = await t.app.inject("/api/account/profile");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ title: "Nicht angemeldet!", detail: "Bitte melden Sie sich an." });
  });

  it("answers 401 for a tampered token", async () => {
    const token = await t.tokenFor(userId);
    const [head, payload, signature] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ sub: String(userId), roles: ["ROLE_ADMIN"], exp: 9e9 }),
    ).toString("base64url");
    for (const bad of [`${head}.${forged}.${signature}`, `${head}.${payload}.${signature}x`, "nonsense"]) {
      const res = await t.app.inject({
        url: "/api/account/profile",
        headers: { authorization: `Bearer ${bad}` },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it("answers unknown API paths with 404 JSON, also with a trailing slash", async () => {
    for (const url of ["/api/gibt-es-nicht", "/api/gibt-es-nicht/"]) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        title: "Nicht gefunden",
        detail: "Die angeforderte Ressource wurde nicht gefunden.",
      });
    }
    const trpc = await t.app.inject("/trpc/gibt.esNicht");
    expect(trpc.statusCode).toBe(404);
    expect(trpc.json().error.json.data).toMatchObject({ title: "Nicht gefunden" });
  });

  it("answers malformed JSON with 400 and its own German text, never a stack trace, on REST and tRPC paths", async () => {
    const expected = { title: MSG.defaultErrorTitle, detail: MSG.invalidJsonDetail };
    for (const url of ["/api/auth/login", "/api/account/profile", "/api/auth/token/refresh"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: "{nope",
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(expected);
      expect(res.body).not.toMatch(/at .*\.ts|stack/i);
    }
    const mutation = await t.app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(mutation.statusCode).toBe(400);
    expect(mutation.json().error.json.data).toMatchObject(expected);
    const query = await t.app.inject({
      url: "/trpc/congress.getContent?input=%7Bnope",
      headers: { authorization: `Bearer ${await t.tokenFor(userId)}` },
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().error.json.data).toMatchObject(expected);
  });

  it("answers an oversized body with 413 in German", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/account/profile",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ x: "a".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBe("Die gesendeten Daten sind zu groß.");
  });
});

describe("profile", () => {
  it("returns the own profile with roles and nothing secret, on the trailing-slash path too", async () => {
    const token = await t.tokenFor(userId);
    for (const url of ["/api/account/profile", "/api/account/profile/"]) {
      const res = await t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: userId,
        email: "Profil@Example.com",
        firstname: "Pia",
        lastname: "Profil",
        roles: ["ROLE_USER"],
        newsletter: false,
        // the account's own EFN (ADR 0114), none here
        efn: null,
      });
    }
  });

  it("refuses the token of a user who no longer exists", async () => {
    const token = await t.tokenFor(987654);
    const res = await t.app.inject({
      url: "/api/account/profile",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("tRPC errors", () => {
  it("carry title and detail and no stack", async () => {
    const res = await t.app.inject("/trpc/account.getProfile");
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body.error.json.data.title).toBe("Nicht angemeldet!");
    expect(body.error.json.data.detail).toBe("Bitte melden Sie sich an.");
    expect(JSON.stringify(body)).not.toContain('stack":"');
  });
});

describe("web app", () => {
  it("serves index.html for app routes (history fallback) without caching", async () => {
    for (const url of ["/", "/login", "/congress/4", "/gibt-es-nicht"]) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("APP");
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("serves hashed assets with a long cache lifetime", async () => {
    const res = await t.app.inject("/assets/index-abc123.js");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("sends security headers", async () => {
    const res = await t.app.inject("/");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["content-security-policy"]).toContain("frame-src https://player.vimeo.com");
    expect(res.headers["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });
});

describe("request ids", () => {
  it("echoes a short, plain x-request-id and replaces anything else with a UUID", async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const plain = "lb-7f3a.9_Z";
    expect(
      (await t.app.inject({ url: "/healthz", headers: { "x-request-id": plain } })).headers["x-request-id"],
    ).toBe(plain);
    for (const hostile of ["a".repeat(65), "a".repeat(10_000), "<script>", "a b", "ä", "x;y", "../etc"]) {
      const res = await t.app.inject({ url: "/healthz", headers: { "x-request-id": hostile } });
      expect(res.headers["x-request-id"], hostile.slice(0, 20)).toMatch(uuid);
    }
    expect((await t.app.inject("/healthz")).headers["x-request-id"]).toMatch(uuid);
  });
});

describe("caching", () => {
  it("answers login, refresh, profile, an export, tRPC calls and API errors with Cache-Control: no-store", async () => {
    const email = `cache.${Date.now().toString(36)}@example.com`;
    await createUser(t.db.db, { email, active: true, passwordHash: await hashPassword("Passwort-1234") });
    const admin = await createUser(t.db.db, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
    const token = await t.tokenFor(userId);
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: "Passwort-1234" },
    });
    expect(login.statusCode, login.body).toBe(200);
    const answers = {
      login,
      refresh: await t.app.inject({
        method: "POST",
        url: "/api/auth/token/refresh",
        payload: { refreshToken: login.json().refreshToken },
      }),
      profile: await t.app.inject({ url: "/api/account/profile", headers: bearer(token) }),
      export: await t.app.inject({ url: "/api/admin/exports/users.csv", headers: bearer(adminToken) }),
      trpcQuery: await t.app.inject({ url: "/trpc/account.getProfile", headers: bearer(token) }),
      trpcBatch: await t.app.inject({
        url: "/trpc/account.getProfile,account.listConsents?batch=1&input={}",
        headers: bearer(token),
      }),
      trpcMutation: await t.app.inject({
        method: "POST",
        url: "/trpc/auth.login",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ json: { email, password: "Passwort-1234" } }),
      }),
      unauthorised: await t.app.inject("/api/account/profile"),
      unknown: await t.app.inject("/api/gibt-es-nicht"),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers["cache-control"], name).toBe("no-store");
    }
    expect(answers.refresh.statusCode, answers.refresh.body).toBe(200);
    expect(answers.trpcQuery.statusCode).toBe(200);
  });

  it("keeps the caching of what is meant to be cached: the web app, its assets and uploaded pictures", async () => {
    expect((await t.app.inject("/login")).headers["cache-control"]).toBe("no-cache");
    expect((await t.app.inject("/assets/index-abc123.js")).headers["cache-control"]).toContain("immutable");
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    const fileName = await storeImage(t.db.db, png);
    const image = await t.app.inject(`/uploads/images/${fileName}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
