import { hashPassword } from "@app/db/password";
import { parseSetCookie } from "cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKey } from "../credentials/access-token";
import { KNOWN_DEVICE_COOKIE, knownDeviceOf } from "../credentials/known-device";
import { REFRESH_COOKIE } from "../services/auth/session";
import { createUser, trpcQuery } from "./builders";
import { createTestApp, type TestApp } from "./harness";
import { mintSession } from "./mint-session";

let t: TestApp;
const PASSWORD = "Minz-Passwort-1";
let passwordHash: string;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const mint = (email: string) => mintSession({ db: t.db.db, env: t.env }, email);

/** The answer's cookies as a browser keeps them, by name. */
function cookiesOf(setCookie: string | string[] | undefined) {
  const lines = typeof setCookie === "string" ? [setCookie] : (setCookie ?? []);
  return new Map(lines.map((line) => parseSetCookie(line)).map((cookie) => [cookie.name, cookie]));
}

/** The browser's first request after a page load: the renewal with the refresh cookie. */
const renew = (refreshToken: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/token/refresh",
    headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}` },
    payload: {},
  });

describe("mintSession", () => {
  it("sets the cookies a login sets, with the same attributes and lifetimes", async () => {
    const user = await createUser(t.db.db, { passwordHash });
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const byLogin = cookiesOf(login.headers["set-cookie"]);
    expect([...byLogin.keys()].sort()).toEqual([KNOWN_DEVICE_COOKIE, REFRESH_COOKIE].sort());

    const minted = await mint(user.email.toUpperCase());
    expect(minted.map((c) => c.name).sort()).toEqual([...byLogin.keys()].sort());
    for (const cookie of minted) {
      const real = byLogin.get(cookie.name);
      expect({
        maxAge: cookie.maxAgeSeconds,
        path: cookie.path,
        httpOnly: cookie.httpOnly,
        secure: cookie.secure,
        sameSite: cookie.sameSite,
      }).toEqual({
        maxAge: real?.maxAge,
        path: real?.path,
        httpOnly: real?.httpOnly,
        secure: real?.secure ?? false,
        sameSite: String(real?.sameSite).toLowerCase(),
      });
      expect(cookie.value).not.toBe(real?.value);
    }
    const device = minted.find((c) => c.name === KNOWN_DEVICE_COOKIE)?.value;
    expect(knownDeviceOf(device, user.id, secretKey(t.env.JWT_SECRET))).not.toBeNull();
  });

  it("the refresh cookie renews into the account's session, rotating like any other", async () => {
    const user = await createUser(t.db.db);
    const refreshToken = minted(await mint(user.email), REFRESH_COOKIE);
    const renewed = await renew(refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().user).toMatchObject({ id: user.id, roles: ["ROLE_USER"] });
    const rotated = cookiesOf(renewed.headers["set-cookie"]).get(REFRESH_COOKIE)?.value;
    expect(rotated).toMatch(/^[\w-]{43}$/);
    expect(rotated).not.toBe(refreshToken);
  });

  it("an admin with two-factor login gets the session after the code: the administration opens, no code asked", async () => {
    const admin = await createUser(t.db.db, {
      passwordHash,
      roles: ["ROLE_USER", "ROLE_ADMIN"],
      totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
      totpEnabledAt: new Date(),
    });
    // the password alone opens no session for this account
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: admin.email, password: PASSWORD },
    });
    expect(login.json()).toMatchObject({ twoFactorRequired: true });
    expect(cookiesOf(login.headers["set-cookie"]).has(REFRESH_COOKIE)).toBe(false);

    const renewed = await renew(minted(await mint(admin.email), REFRESH_COOKIE));
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().user.roles).toEqual(["ROLE_USER", "ROLE_ADMIN"]);
    const status = await trpcQuery(t, "admin.twoFactor.getStatus", undefined, {
      token: renewed.json().token,
    });
    expect(status.status).toBe(200);
    expect(status.data).toMatchObject({ enabled: true });
  });

  it("refuses an account the login would refuse, and an address without an account", async () => {
    const inactive = await createUser(t.db.db, { active: false });
    await expect(mint(inactive.email)).rejects.toThrow(/no active account/);
    await expect(mint("niemand@example.com")).rejects.toThrow(/no active account/);
  });
});

function minted(cookies: { name: string; value: string }[], name: string): string {
  const cookie = cookies.find((c) => c.name === name);
  if (!cookie) {
    throw new Error(`no ${name} cookie minted`);
  }
  return cookie.value;
}
