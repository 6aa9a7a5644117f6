import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { and, eq, isNull } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../lib/tokens";
import { createUser, trpcMutation, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
const db = () => t.db.db;
const PASSWORD = "Zwei-Faktor-Passwort-1";
let passwordHash: string;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

let ipSeq = 0;
/** an address per test: the per-IP login limits of one test never reach another */
const nextIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

/** A code of the authenticator app, `steps` time steps from now (the server accepts one step either side). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

const adminRoles = ["ROLE_USER", "ROLE_ADMIN"] as const;
async function freshAdmin() {
  const user = await createUser(db(), { passwordHash, roles: [...adminRoles] });
  return { user, token: await t.tokenFor(user.id, [...adminRoles]), ip: nextIp() };
}

/** An admin who has set up two-factor login through the procedures (the setup used the current step). */
async function adminWithTwoFactor() {
  const admin = await freshAdmin();
  const begun = await trpcMutation(t, "admin.twoFactor.begin", undefined, admin);
  expect(begun.status).toBe(200);
  const secret: string = begun.data.secret;
  const enabled = await trpcMutation(t, "admin.twoFactor.enable", { code: codeOf(secret) }, admin);
  expect(enabled.status).toBe(200);
  // switching it on ended the admin's sessions; the answer carries the new one
  return {
    ...admin,
    token: enabled.data.session.token as string,
    secret,
    recoveryCodes: enabled.data.recoveryCodes as string[],
  };
}

const restLogin = (email: string, ip: string, password = PASSWORD) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, remoteAddress: ip });
const restSecondStep = (challenge: string, code: string, ip: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login/two-factor",
    payload: { challenge, code },
    remoteAddress: ip,
  });

async function challengeFor(email: string, ip: string): Promise<string> {
  const res = await restLogin(email, ip);
  expect(res.statusCode).toBe(200);
  return res.json().challenge;
}

describe("setting up two-factor login", () => {
  it("stores a secret, enables it only with a valid code and hands out ten hashed recovery codes once", async () => {
    const admin = await freshAdmin();
    const begun = await trpcMutation(t, "admin.twoFactor.begin", undefined, admin);
    expect(begun.status).toBe(200);
    const { secret, uri, qrCode } = begun.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain("issuer=Kongress-Plattform");
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(",")[1], "base64").toString()).toContain("<svg");
    const [stored] = await db().select().from(schema.users).where(eq(schema.users.id, admin.user.id));
    expect(stored?.totpSecret).toBe(secret);
    expect(stored?.totpEnabledAt).toBeNull();

    const wrong = await trpcMutation(t, "admin.twoFactor.enable", { code: "000000" }, admin);
    expect(wrong.status).toBe(400);
    expect(wrong.error?.detail).toContain("Bestätigungscode ist ungültig");
    const otherSecret = await trpcMutation(
      t,
      "admin.twoFactor.enable",
      { code: codeOf("JBSWY3DPEHPK3PXP") },
      admin,
    );
    expect(otherSecret.status).toBe(400);
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).data.enabled).toBe(false);

    const enabled = await trpcMutation(t, "admin.twoFactor.enable", { code: codeOf(secret) }, admin);
    expect(enabled.status).toBe(200);
    const codes: string[] = enabled.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    }
    const rows = await db()
      .select()
      .from(schema.recoveryCodes)
      .where(eq(schema.recoveryCodes.userId, admin.user.id));
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.codeHash)).toContain(hashToken(codes[0]?.replace("-", "") ?? ""));
    expect(JSON.stringify(rows)).not.toContain(codes[0]);

    // switching it on ended every earlier session: the token of before is refused, the new one works
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).status).toBe(401);
    const renewed = { ...admin, token: enabled.data.session.token as string };
    expect(String(enabled.headers["set-cookie"])).toMatch(/refresh_token=[\w-]+/);
    const status = await trpcQuery(t, "admin.twoFactor.getStatus", undefined, renewed);
    expect(status.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // once enabled, neither a new secret nor new codes without switching it off first
    expect((await trpcMutation(t, "admin.twoFactor.begin", undefined, renewed)).status).toBe(409);
    expect(
      (await trpcMutation(t, "admin.twoFactor.enable", { code: codeOf(secret, 1) }, renewed)).status,
    ).toBe(409);
  });

  it("refuses enabling before a setup was started", async () => {
    const admin = await freshAdmin();
    const res = await trpcMutation(t, "admin.twoFactor.enable", { code: "123456" }, admin);
    expect(res.status).toBe(400);
    expect(res.error?.detail).toBe("Bitte starten Sie die Einrichtung erneut.");
  });

  it("is for admins only", async () => {
    const visitor = await createUser(db(), { passwordHash });
    const res = await trpcMutation(t, "admin.twoFactor.begin", undefined, {
      token: await t.tokenFor(visitor.id),
      ip: nextIp(),
    });
    expect(res.status).toBe(403);
  });
});

describe("signing in with two-factor login", () => {
  it("REST: the password gives only a challenge, the code the session with its refresh cookie", async () => {
    const admin = await adminWithTwoFactor();
    const first = await restLogin(admin.user.email, admin.ip);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ twoFactorRequired: true });
    expect(body.token).toBeUndefined();
    expect(body.refreshToken).toBeUndefined();
    expect(first.headers["set-cookie"]).toBeUndefined();
    // the challenge is no access token
    const asToken = await trpcQuery(t, "account.getProfile", undefined, {
      token: body.challenge,
      ip: admin.ip,
    });
    expect(asToken.status).toBe(401);

    const second = await restSecondStep(body.challenge, codeOf(admin.secret, 1), admin.ip);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ user: { id: admin.user.id } });
    expect(second.json().token).toEqual(expect.any(String));
    const cookie = String(second.headers["set-cookie"]);
    const refreshCookie = cookie.match(/refresh_token=[\w-]+/)?.[0];
    expect(refreshCookie).toBeDefined();

    // refreshing the session needs no code
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      headers: { cookie: refreshCookie ?? "" },
      payload: {},
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.id).toBe(admin.user.id);
  });

  it("tRPC: auth.login answers a challenge, auth.loginTwoFactor refuses a wrong code and accepts a right one", async () => {
    const admin = await adminWithTwoFactor();
    const opts = { ip: admin.ip };
    const first = await trpcMutation(t, "auth.login", { email: admin.user.email, password: PASSWORD }, opts);
    expect(first.status).toBe(200);
    expect(first.data.twoFactorRequired).toBe(true);
    expect(first.data.token).toBeUndefined();
    const { challenge } = first.data;

    const wrong = await trpcMutation(t, "auth.loginTwoFactor", { challenge, code: "123456" }, opts);
    expect(wrong.status).toBe(401);
    expect(wrong.error?.title).toBe("Bestätigung fehlgeschlagen");
    expect(wrong.error?.reason).toBe("two-factor-code-invalid");
    const right = await trpcMutation(
      t,
      "auth.loginTwoFactor",
      { challenge, code: codeOf(admin.secret, 1) },
      opts,
    );
    expect(right.status).toBe(200);
    expect(right.data.user.id).toBe(admin.user.id);
    expect(right.data.token).toEqual(expect.any(String));
  });

  it("refuses a code used before (replay) and a code of an earlier time step", async () => {
    const admin = await adminWithTwoFactor();
    const challenge = await challengeFor(admin.user.email, admin.ip);
    const code = codeOf(admin.secret, 1);
    expect((await restSecondStep(challenge, code, admin.ip)).statusCode).toBe(200);
    const replay = await restSecondStep(challenge, code, admin.ip);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().detail).toContain("bereits verwendet");
    // the setup used the current step, the login the next one: the current one is spent too
    expect((await restSecondStep(challenge, codeOf(admin.secret, 0), admin.ip)).statusCode).toBe(401);
  });

  it("accepts each recovery code once", async () => {
    const admin = await adminWithTwoFactor();
    const [code, other] = admin.recoveryCodes;
    const challenge = () => challengeFor(admin.user.email, admin.ip);
    const used = await restSecondStep(
      await challenge(),
      (code ?? "").toLowerCase().replace("-", " "),
      admin.ip,
    );
    expect(used.statusCode).toBe(200);
    expect((await restSecondStep(await challenge(), code ?? "", admin.ip)).statusCode).toBe(401);
    expect((await restSecondStep(await challenge(), other ?? "", admin.ip)).statusCode).toBe(200);
    const left = await db()
      .select()
      .from(schema.recoveryCodes)
      .where(and(eq(schema.recoveryCodes.userId, admin.user.id), isNull(schema.recoveryCodes.usedAt)));
    expect(left).toHaveLength(8);
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).data.recoveryCodesLeft).toBe(
      8,
    );
  });

  it("counts wrong codes like wrong passwords: after ten from one address, even the right code is refused there", async () => {
    const admin = await adminWithTwoFactor();
    const challenge = await challengeFor(admin.user.email, admin.ip);
    const valid = new Set([-1, 0, 1].map((steps) => codeOf(admin.secret, steps)));
    const wrongCodes = Array.from({ length: 20 }, (_, i) => String(100000 + i)).filter((c) => !valid.has(c));
    for (const [i, code] of wrongCodes.slice(0, 10).entries()) {
      const res = await restSecondStep(challenge, code, admin.ip);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const blocked = await restSecondStep(challenge, codeOf(admin.secret, 1), admin.ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ title: "Zu viele Anfragen" });
    // the password step of the same account from the same address is held too
    expect((await restLogin(admin.user.email, admin.ip)).statusCode).toBe(429);
    // but nobody is locked out: from elsewhere the owner still signs in (docs/security.md, sign-in limits)
    const elsewhere = nextIp();
    const fresh = await challengeFor(admin.user.email, elsewhere);
    expect((await restSecondStep(fresh, codeOf(admin.secret, 1), elsewhere)).statusCode).toBe(200);
  });

  it("redeems a challenge once, also with two different valid codes at the same moment", async () => {
    const admin = await adminWithTwoFactor();
    const challenge = await challengeFor(admin.user.email, admin.ip);
    const [first, second] = await Promise.all([
      restSecondStep(challenge, codeOf(admin.secret, 1), admin.ip),
      restSecondStep(challenge, admin.recoveryCodes[0] ?? "", admin.ip),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 401]);
    const later = await restSecondStep(challenge, admin.recoveryCodes[1] ?? "", admin.ip);
    expect(later.statusCode).toBe(401);
    expect(later.json().detail).toContain("Anmeldung ist abgelaufen");
  });

  it("refuses tampered, foreign and voided challenges", async () => {
    const admin = await adminWithTwoFactor();
    const challenge = await challengeFor(admin.user.email, admin.ip);
    const code = codeOf(admin.secret, 1);
    const [head, , sig] = challenge.split(".");
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: "1", purpose: "two-factor-login", pw: "x" })).toString("base64url")}.${sig}`;
    for (const bad of [forged, `${challenge}x`, admin.token]) {
      const res = await restSecondStep(bad, code, admin.ip);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toContain("Anmeldung ist abgelaufen");
    }
    // a password reset since the password step voids the challenge
    const resetToken = "reset-token-of-the-test-0123456789";
    await db()
      .insert(schema.passwordResetTokens)
      .values({
        userId: admin.user.id,
        tokenHash: hashToken(resetToken),
        expiresAt: new Date(Date.now() + 60_000),
      });
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${resetToken}`,
      payload: { password: "Neues-Passwort-22", passwordConfirm: "Neues-Passwort-22" },
      remoteAddress: admin.ip,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await restSecondStep(challenge, code, admin.ip)).statusCode).toBe(401);
  });

  it("leaves accounts without two-factor login alone: the password gives the session", async () => {
    const visitor = await createUser(db(), { passwordHash });
    const admin = await freshAdmin();
    for (const user of [visitor, admin.user]) {
      const res = await restLogin(user.email, nextIp());
      expect(res.statusCode).toBe(200);
      expect(res.json().token).toEqual(expect.any(String));
      expect(res.json().twoFactorRequired).toBeUndefined();
    }
  });
});

describe("switching two-factor login off", () => {
  it("needs a current code; afterwards the password alone signs in again", async () => {
    const admin = await adminWithTwoFactor();
    const wrong = await trpcMutation(t, "admin.twoFactor.disable", { code: "000000" }, admin);
    expect(wrong.status).toBe(400);
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).data.enabled).toBe(true);

    const done = await trpcMutation(t, "admin.twoFactor.disable", { code: codeOf(admin.secret, 1) }, admin);
    expect(done.status).toBe(200);
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, admin.user.id));
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect(await db().$count(schema.recoveryCodes, eq(schema.recoveryCodes.userId, admin.user.id))).toBe(0);
    const login = await restLogin(admin.user.email, admin.ip);
    expect(login.json().token).toEqual(expect.any(String));
  });

  it("leaves an audit entry when switched on and off, with no secret or code in it", async () => {
    const admin = await adminWithTwoFactor();
    await trpcMutation(t, "admin.twoFactor.disable", { code: admin.recoveryCodes[0] }, admin);
    const entries = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entity, "user"), eq(schema.auditLog.entityId, String(admin.user.id))))
      .orderBy(schema.auditLog.id);
    expect(
      entries.map(({ action, actorKind, actorId, changes }) => ({ action, actorKind, actorId, changes })),
    ).toEqual([
      {
        action: "user.two-factor-on",
        actorKind: "admin",
        actorId: admin.user.id,
        changes: { twoFactor: [false, true] },
      },
      {
        action: "user.two-factor-off",
        actorKind: "admin",
        actorId: admin.user.id,
        changes: { twoFactor: [true, false] },
      },
    ]);
    const logged = JSON.stringify(entries);
    expect(logged).not.toContain(admin.secret);
    expect(logged).not.toContain(admin.recoveryCodes[0]);
  });

  it("takes an unused recovery code instead (a lost phone)", async () => {
    const admin = await adminWithTwoFactor();
    const res = await trpcMutation(t, "admin.twoFactor.disable", { code: admin.recoveryCodes[3] }, admin);
    expect(res.status).toBe(200);
    // switching it off ended the sessions too (a stolen one must not outlive it); the answer has the new one
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).status).toBe(401);
    const renewed = { ...admin, token: res.data.session.token as string };
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, renewed)).data.enabled).toBe(false);
  });
});

describe("renewing the recovery codes", () => {
  it("takes a current app code, replaces every earlier code and records it in the audit log", async () => {
    const admin = await adminWithTwoFactor();
    const byRecoveryCode = await trpcMutation(
      t,
      "admin.twoFactor.renewRecoveryCodes",
      { code: admin.recoveryCodes[0] },
      admin,
    );
    expect(byRecoveryCode.status).toBe(400);

    const renewed = await trpcMutation(
      t,
      "admin.twoFactor.renewRecoveryCodes",
      { code: codeOf(admin.secret, 1) },
      admin,
    );
    expect(renewed.status).toBe(200);
    const fresh: string[] = renewed.data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => admin.recoveryCodes.includes(code))).toBe(false);
    expect((await trpcQuery(t, "admin.twoFactor.getStatus", undefined, admin)).data.recoveryCodesLeft).toBe(
      10,
    );

    // an old code no longer signs in; a new one does
    const oldCode = await restSecondStep(
      await challengeFor(admin.user.email, admin.ip),
      admin.recoveryCodes[1] ?? "",
      admin.ip,
    );
    expect(oldCode.statusCode).toBe(401);
    const newCode = await restSecondStep(
      await challengeFor(admin.user.email, admin.ip),
      fresh[0] ?? "",
      admin.ip,
    );
    expect(newCode.json().token).toEqual(expect.any(String));

    const [entry] = await db()
      .select()
      .from(schema.auditLog)
      .where(
        and(
          eq(schema.auditLog.action, "user.recovery-codes"),
          eq(schema.auditLog.entityId, String(admin.user.id)),
        ),
      );
    expect(entry).toMatchObject({ actorKind: "admin", actorId: admin.user.id, entity: "user", changes: {} });
  });

  it("is refused without two-factor login and for visitors", async () => {
    const admin = await freshAdmin();
    const res = await trpcMutation(t, "admin.twoFactor.renewRecoveryCodes", { code: "123456" }, admin);
    expect(res.status).toBe(400);
    const visitor = await createUser(db(), {});
    const asVisitor = { token: await t.tokenFor(visitor.id, ["ROLE_USER"]) };
    expect(
      (await trpcMutation(t, "admin.twoFactor.renewRecoveryCodes", { code: "123456" }, asVisitor)).status,
    ).toBe(403);
  });
});
