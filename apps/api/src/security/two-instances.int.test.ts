/**
 * Two API instances on one PostgreSQL, as behind a load balancer: sessions, uploads, rate limits and
 * queued mails must not depend on which instance a request or job lands on.
 */
import { randomBytes } from "node:crypto";
import { hashPassword } from "@app/db/password";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, multipart } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({ mail: true });
  // the second instance sends through the first one's SMTP server, so every mail is counted in one place
  b = await createTestApp({ mail: true, sameDatabaseAs: a, env: { SMTP_URL: a.smtp.url } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const unique = () => randomBytes(4).toString("hex");
const PASSWORD = "zwei-Instanzen-2026";

async function account() {
  const email = `zwei.${unique()}@example.com`;
  const user = await createUser(a.db.db, { email, active: true, passwordHash: await hashPassword(PASSWORD) });
  return { ...user, email };
}

const login = (app: TestApp, email: string, password = PASSWORD, ip = "10.0.0.1") =>
  app.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress: ip,
  });

describe("two API instances on one database", () => {
  it("a session started on one instance is refreshed and used on the other", async () => {
    const { email } = await account();
    const started = await login(a, email);
    expect(started.statusCode).toBe(200);
    const { token, refreshToken } = started.json() as { token: string; refreshToken: string };
    const profile = await b.app.inject({
      url: "/api/account/profile",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.json().email).toBe(email);
    const refreshed = await b.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      payload: { refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    // the rotated token is spent on both instances
    await new Promise((done) => setTimeout(done, 50));
    const again = await a.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      payload: { refreshToken: refreshed.json().refreshToken },
    });
    expect(again.statusCode).toBe(200);
  });

  it("a logout on one instance ends its access token on every instance, also one keeping session states", async () => {
    // a third instance that keeps what it read of sessions, as in production (it hears the database's
    // announcements of changes)
    const c = await createTestApp({ sameDatabaseAs: a, env: { SESSION_STATE_CACHE_MS: "600000" } });
    try {
      const { email } = await account();
      const { token, refreshToken } = (await login(a, email)).json() as {
        token: string;
        refreshToken: string;
      };
      const other = (await login(b, email, PASSWORD, "10.0.0.2")).json() as { token: string };
      const profile = (app: TestApp, bearer = token) =>
        app.app.inject({ url: "/api/account/profile", headers: { authorization: `Bearer ${bearer}` } });
      const overview = (app: TestApp, bearer = token) =>
        app.app.inject({ url: "/trpc/congress.getOverview", headers: { authorization: `Bearer ${bearer}` } });
      for (const app of [a, b, c]) {
        expect((await profile(app)).statusCode).toBe(200);
        expect((await overview(app)).statusCode).toBe(200);
      }
      const out = await a.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken } });
      expect(out.statusCode).toBe(200);
      await expect.poll(async () => (await profile(c)).statusCode, { timeout: 5000 }).toBe(401);
      for (const app of [a, b, c]) {
        expect((await profile(app)).statusCode).toBe(401);
        expect((await overview(app)).statusCode).toBe(401);
        // the other session of the same account goes on
        expect((await profile(app, other.token)).statusCode).toBe(200);
        expect((await overview(app, other.token)).statusCode).toBe(200);
      }
    } finally {
      await c.close();
    }
  });

  it("a picture uploaded to one instance is served by the other", async () => {
    const admin = await createUser(a.db.db, { roles: ["ROLE_USER", "ROLE_ADMIN"], active: true });
    const png = await sharp(randomBytes(8 * 8 * 3), { raw: { width: 8, height: 8, channels: 3 } })
      .png()
      .toBuffer();
    const boundary = "----zwei-instanzen";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bild.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await a.app.inject({
      method: "POST",
      url: "/api/images",
      headers: {
        authorization: `Bearer ${await a.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"])}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { url } = uploaded.json() as { url: string };
    const [fromA, fromB] = [await a.app.inject(url), await b.app.inject(url)];
    expect(fromB.statusCode).toBe(200);
    expect(fromB.rawPayload.equals(fromA.rawPayload)).toBe(true);
    expect(fromB.headers.etag).toBe(fromA.headers.etag);
  });

  it("the login failure limit counts the attempts of both instances together", async () => {
    const { email } = await account();
    for (let i = 0; i < 10; i++) {
      const res = await login(i % 2 ? a : b, email, "falsch", "10.1.0.1");
      expect(res.statusCode).toBe(401);
    }
    expect((await login(a, email, PASSWORD, "10.1.0.1")).statusCode).toBe(429);
    expect((await login(b, email, PASSWORD, "10.1.0.1")).statusCode).toBe(429);
    // the limit is per address and client: the owner elsewhere is not locked out
    expect((await login(b, email, PASSWORD, "10.2.0.2")).statusCode).toBe(200);
  });

  it("mails queued on both instances are each delivered exactly once", async () => {
    const emails = Array.from({ length: 12 }, () => `neu.${unique()}@example.com`);
    const answers = await Promise.all(
      emails.map((email, i) =>
        (i % 2 ? a : b).app.inject({
          method: "POST",
          url: "/api/register/",
          remoteAddress: `10.3.${i}.1`,
          ...multipart({
            user: JSON.stringify({
              firstname: "Zwei",
              lastname: "Instanzen",
              email,
              password: PASSWORD,
              dataProtection: true,
              newsletter: false,
            }),
          }),
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(emails.map(() => 201));
    for (const email of emails) {
      await a.smtp.waitFor((m) => m.to.includes(email));
    }
    // both instances keep polling and sweeping for a while: nothing may be sent twice
    await new Promise((done) => setTimeout(done, 3000));
    for (const email of emails) {
      expect(
        a.smtp.mails.filter((m) => m.to.includes(email)),
        email,
      ).toHaveLength(1);
    }
    expect(b.smtp.mails).toHaveLength(0);
  }, 30_000);
});
