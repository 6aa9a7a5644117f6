/**
 * Mailed links expire by the application's clock (ADR 0099): the tests move the clock past a link's
 * lifetime instead of back-dating its row.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUser, trpcMutation, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterEach(() => {
  t.clock.reset();
});
afterAll(async () => {
  await t?.close();
});

const MINUTE = 60_000;

/** The token of the newest mail to `email` whose link has `path` in it. */
async function tokenFromMail(email: string, path: string, after: number): Promise<string> {
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes(email) && m.html.includes(`/${path}/`) && t.smtp.mails.indexOf(m) >= after,
    20_000,
  );
  const token = new RegExp(`/${path}/([\\w-]+)`).exec(mail.html)?.[1];
  expect(token).toBeDefined();
  return token ?? "";
}

describe("token expiry by the clock", () => {
  it("a reset link works for an hour after it was made", async () => {
    const user = await createUser(t.db.db);
    const after = t.smtp.mails.length;
    await trpcMutation(t, "auth.requestPasswordReset", { email: user.email }, { ip: "10.7.0.1" });
    const token = await tokenFromMail(user.email, "resetPassword", after);
    const valid = async () => (await trpcQuery(t, "auth.validateResetToken", { token })).data.valid;

    expect(await valid()).toBe(true);
    t.clock.advance(59 * MINUTE);
    expect(await valid()).toBe(true);
    t.clock.advance(MINUTE + 1000);
    expect(await valid()).toBe(false);
    const reset = await trpcMutation(
      t,
      "auth.resetPassword",
      { token, password: "Neues-Passwort-2030", passwordConfirm: "Neues-Passwort-2030" },
      { ip: "10.7.0.2" },
    );
    expect(reset.status).toBe(400);
  }, 30_000);

  it("a sign-in link works for 15 minutes after it was made", async () => {
    const user = await createUser(t.db.db);
    const link = async (ip: string) => {
      const after = t.smtp.mails.length;
      await trpcMutation(t, "auth.requestSignInLink", { email: user.email }, { ip });
      return tokenFromMail(user.email, "login-link", after);
    };

    const late = await link("10.7.1.1");
    t.clock.advance(15 * MINUTE + 1000);
    const refused = await trpcMutation(t, "auth.signInWithLink", { token: late }, { ip: "10.7.1.2" });
    expect(refused.status).toBe(400);

    t.clock.reset();
    const inTime = await link("10.7.1.3");
    t.clock.advance(14 * MINUTE);
    const signedIn = await trpcMutation(t, "auth.signInWithLink", { token: inTime }, { ip: "10.7.1.4" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.data.user.id).toBe(user.id);
  }, 30_000);
});
