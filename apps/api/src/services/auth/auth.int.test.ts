import { schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const uniqueEmail = (prefix = "person") => `${prefix}.${Date.now()}.${++counter}@example.com`;

function registerForm(user: Record<string, unknown>, extra: Record<string, string> = {}) {
  const boundary = "----test-boundary";
  const parts = Object.entries({ user: JSON.stringify(user), ...extra }).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    method: "POST" as const,
    url: "/api/register/",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join("")}--${boundary}--\r\n`,
  };
}

const validUser = (email: string) => ({
  firstname: "Erika",
  lastname: "Muster",
  email,
  password: "sicheres-Passwort-1",
  dataProtection: true,
  newsletter: false,
});

async function registerAndConfirm(email: string): Promise<number> {
  const res = await t.app.inject(registerForm(validUser(email)));
  expect(res.statusCode).toBe(201);
  const mail = await t.smtp.waitFor((m) => m.to.includes(email));
  const link = mail.html.match(/confirm-mail\/(\d+)\/([\w-]+)/);
  const confirm = await t.app.inject({
    method: "POST",
    url: "/api/confirm-mail/",
    payload: { userId: link?.[1], hash: link?.[2] },
  });
  expect(confirm.statusCode).toBe(200);
  return Number(link?.[1]);
}

const login = (email: string, password = "sicheres-Passwort-1") =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });

async function userCount(): Promise<number> {
  const result = await t.db.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM users`);
  return Number(result.rows[0]?.n);
}

describe("registration", () => {
  it("creates an inactive account, stores the newsletter consent time and mails the confirmation link", async () => {
    const email = uniqueEmail("neu");
    const res = await t.app.inject(
      registerForm({ ...validUser(email), newsletter: true }, { congressId: "4", showVideo: "true" }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().detail).toContain("bestätigen Sie Ihre E-Mail-Adresse");

    const [user] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(user?.active).toBe(false);
    expect(user?.newsletterConsentAt).toBeInstanceOf(Date);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);

    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe("Bitte bestätigen Sie Ihre E-Mail-Adresse");
    expect(mail.html).toMatch(new RegExp(`http://app.test/confirm-mail/${user?.id}/[\\w-]{43}/4/1`));
    expect(mail.html).toContain("Sie haben unseren Newsletter abonniert.");
  });

  it("answers a second registration of an address (any letter case) like a new one, changes nothing and tells the owner once the hour of the first is over", async () => {
    const email = uniqueEmail("doppelt");
    const first = await t.app.inject(registerForm(validUser(email)));
    expect(first.statusCode).toBe(201);
    const before = await userCount();
    const registerAgain = () =>
      t.app.inject(
        registerForm({
          ...validUser(email.toUpperCase()),
          firstname: "Andere",
          password: "anderes-Passwort-9",
        }),
      );
    // within the hour of the first registration: the confirmation mail is the one mail (ADR 0086)
    const soon = await registerAgain();
    expect(soon.statusCode).toBe(first.statusCode);
    expect(soon.json()).toEqual(first.json());
    const queued = await t.db.db
      .select({ template: schema.mailOutbox.templateName })
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.toEmail, email));
    expect(queued).toEqual([{ template: "registration-confirmation" }]);

    await t.db.db.execute(
      sql`UPDATE rate_limits SET window_start = now() - interval '61 minutes' WHERE key = ${`registration:${email}`}`,
    );
    const again = await registerAgain();
    // nobody learns from the answer that the address has an account (ADR 0061)
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(await userCount()).toBe(before);
    const [owner] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(owner?.firstname).toBe("Erika");

    // the owner hears of it, with a reset link that works (it also confirms the address)
    const notice = await t.smtp.waitFor(
      (m) => m.to.includes(email) && m.subject === "Sie haben bereits ein Konto",
    );
    expect(notice.html).toContain("wollte sich jemand mit Ihrer E-Mail-Adresse neu registrieren");
    const token = notice.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "";
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: "neues-Passwort-7", passwordConfirm: "neues-Passwort-7" },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, "neues-Passwort-7")).statusCode).toBe(200);
    expect((await login(email, "anderes-Passwort-9")).statusCode).toBe(401);
  });

  it.each([
    [{ firstname: "" }, "Vorname ist ein Pflichtfeld"],
    [{ lastname: "" }, "Nachname ist ein Pflichfeld"],
    [{ email: "" }, "E-Mail ist ein Pflichtfeld"],
    [{ password: "" }, "Passwort ist ein Pflichfeld"],
    [{ password: "kurz12" }, "Bitte benutzen Sie ein Passwort mit mindestens 8 Zeichen."],
    [{ dataProtection: false }, "Bitte nehmen Sie die Datenschutzerklärung zur Kenntnis"],
  ])("refuses %o with the spec's message", async (override, message) => {
    const before = await userCount();
    const res = await t.app.inject(registerForm({ ...validUser(uniqueEmail()), ...override }));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(message);
    expect(await userCount()).toBe(before);
  });
});

describe("mail confirmation", () => {
  it("activates once; the link then reports 'already confirmed'; a wrong hash fails", async () => {
    const email = uniqueEmail("bestaetigen");
    await t.app.inject(registerForm(validUser(email)));
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    const [, userId, hash] = mail.html.match(/confirm-mail\/(\d+)\/([\w-]+)/) ?? [];

    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/confirm-mail/",
      payload: { userId, hash: "falsch" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().title).toBe("Fehler bei der E-Mail Bestätigung");

    const ok = await t.app.inject({ method: "POST", url: "/api/confirm-mail/", payload: { userId, hash } });
    expect(ok.json().detail).toContain("Ihre E-Mail-Adresse ist bestätigt");
    const again = await t.app.inject({
      method: "POST",
      url: "/api/confirm-mail/",
      payload: { userId, hash },
    });
    expect(again.json().detail).toContain("bereits bestätigt");

    const missing = await t.app.inject({ method: "POST", url: "/api/confirm-mail/", payload: { userId } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toContain("Fehler bei der E-Mail Bestätigung");
  });
});

describe("login", () => {
  it("tells an unconfirmed user to confirm, and resends the mail on request", async () => {
    const email = uniqueEmail("unbestaetigt");
    await t.app.inject(registerForm(validUser(email)));
    const res = await login(email);
    expect(res.statusCode).toBe(403);
    expect(res.json().title).toBe("E-Mail-Adresse nicht bestätigt");

    const before = t.smtp.mails.filter((m) => m.to.includes(email)).length;
    const resend = await t.app.inject({ method: "POST", url: "/api/register/resend", payload: { email } });
    expect(resend.statusCode).toBe(200);
    await t.smtp.waitFor(
      (m) => m.to.includes(email) && t.smtp.mails.filter((x) => x.to.includes(email)).length > before,
    );
  });

  it("answers wrong passwords and unknown users identically", async () => {
    const email = uniqueEmail("login");
    await registerAndConfirm(email);
    const wrong = await login(email, "falsches-passwort");
    const unknown = await login(uniqueEmail("niemand"), "falsches-passwort");
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        title: "Die Zugangsdaten sind nicht korrekt.",
        detail:
          "Die angegebene Kombination aus E-Mail-Adresse und Passwort ist ungültig. Bitte versuchen Sie es erneut.",
      });
    }
  });

  it("returns tokens in JSON and the refresh token as an httpOnly SameSite=Strict cookie", async () => {
    const email = uniqueEmail("ok");
    const userId = await registerAndConfirm(email);
    const res = await login(email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: userId, email, roles: ["ROLE_USER"] });
    expect(body.expiresAt - Date.now()).toBeGreaterThan(1_990_000);
    expect(body.expiresAt - Date.now()).toBeLessThanOrEqual(2_000_000);
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toContain(`refresh_token=${body.refreshToken}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);

    const profile = await t.app.inject({
      url: "/api/account/profile",
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(profile.json().email).toBe(email);
  });

  it("sends a migrated user without password the set-password mail", async () => {
    const email = uniqueEmail("migriert");
    await t.db.db
      .insert(schema.users)
      .values({ email, firstname: "Max", lastname: "Alt", active: true, migrationHash: "alt-hash-123" });
    const res = await login(email, "irgendwas");
    expect(res.statusCode).toBe(403);
    expect(res.json().title).toBe("Bitte legen Sie ein Passwort fest");
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    expect(mail.html).toMatch(/migration\/set-password\/\d+\/alt-hash-123/);
  });
});

describe("refresh tokens", () => {
  async function session() {
    const email = uniqueEmail("refresh");
    await registerAndConfirm(email);
    return { email, body: (await login(email)).json() };
  }
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: "POST", url: "/api/auth/token/refresh", payload: { refreshToken } });

  it("rotates on every use", async () => {
    const { body } = await session();
    const first = await refresh(body.refreshToken);
    expect(first.statusCode).toBe(200);
    expect(first.json().refreshToken).not.toBe(body.refreshToken);
    const second = await refresh(first.json().refreshToken);
    expect(second.statusCode).toBe(200);
  });

  it("revokes the whole family when a rotated token is used again", async () => {
    const { body } = await session();
    const next = (await refresh(body.refreshToken)).json();
    // pretend the rotation happened a minute ago (outside the two-tabs grace window)
    await t.db.db.execute(
      sql`UPDATE refresh_tokens SET rotated_at = now() - interval '1 minute' WHERE rotated_at IS NOT NULL`,
    );
    expect((await refresh(body.refreshToken)).statusCode).toBe(401);
    expect((await refresh(next.refreshToken)).statusCode).toBe(401);
  });

  it("ends the session of a user an admin deactivated, and after logout", async () => {
    const { email, body } = await session();
    await t.db.db.update(schema.users).set({ active: false }).where(eq(schema.users.email, email));
    expect((await refresh(body.refreshToken)).statusCode).toBe(401);

    const other = await session();
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      payload: { refreshToken: other.body.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect((await refresh(other.body.refreshToken)).statusCode).toBe(401);
  });
});

describe("password reset", () => {
  const forgot = (email: string) =>
    t.app.inject({ method: "POST", url: "/api/auth/resetPassword/", payload: { email } });

  it("answers neutrally, mails a single-use link and ends all sessions", async () => {
    const email = uniqueEmail("reset");
    await registerAndConfirm(email);
    const oldSession = (await login(email)).json();

    const unknown = await forgot(uniqueEmail("unbekannt"));
    const known = await forgot(email);
    expect(unknown.json()).toEqual(known.json());

    const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject === "Passwort zurücksetzen");
    const token = mail.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "";
    expect((await t.app.inject(`/api/auth/resetPassword/validate/${token}`)).json()).toEqual({ valid: true });

    const mismatch = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: "neues-Passwort-2", passwordConfirm: "anders-Passwort-2" },
    });
    expect(mismatch.json().detail).toBe("Die beiden Passwörter stimmen nicht überein");

    const ok = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: "neues-Passwort-2", passwordConfirm: "neues-Passwort-2" },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject(`/api/auth/resetPassword/validate/${token}`)).json()).toEqual({
      valid: false,
    });
    const reuse = await t.app.inject({
      method: "POST",
      url: `/api/auth/resetPassword/reset/${token}`,
      payload: { password: "drittes-Passwort-3", passwordConfirm: "drittes-Passwort-3" },
    });
    expect(reuse.statusCode).toBe(400);

    expect((await login(email, "neues-Passwort-2")).statusCode).toBe(200);
    const stale = await t.app.inject({
      method: "POST",
      url: "/api/auth/token/refresh",
      payload: { refreshToken: oldSession.refreshToken },
    });
    expect(stale.statusCode).toBe(401);
  });

  it("refuses an expired link", async () => {
    const email = uniqueEmail("abgelaufen");
    await registerAndConfirm(email);
    await forgot(email);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject === "Passwort zurücksetzen");
    const token = mail.html.match(/resetPassword\/([\w-]+)/)?.[1] ?? "";
    await t.db.db.execute(sql`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'`);
    expect((await t.app.inject(`/api/auth/resetPassword/validate/${token}`)).json()).toEqual({
      valid: false,
    });
  });
});

describe("migration set-password", () => {
  it("sets the first password with the right hash only, then the user can log in", async () => {
    const email = uniqueEmail("mig");
    const [user] = await t.db.db
      .insert(schema.users)
      .values({ email, firstname: "Mia", lastname: "Alt", active: true, migrationHash: "geheimer-hash" })
      .returning();
    const post = (payload: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/migration/set-password",
        payload: { userId: String(user?.id), ...payload },
      });

    const wrong = await post({ hash: "falsch", password: "langes-passwort" });
    expect(wrong.statusCode).toBe(400);
    const short = await post({ hash: "geheimer-hash", password: "kurz" });
    expect(short.json().detail).toBe("Bitte benutzen Sie ein Passwort mit mindestens 8 Zeichen.");
    const mismatch = await post({
      hash: "geheimer-hash",
      password: "langes-passwort",
      passwordConfirm: "anderes",
    });
    expect(mismatch.json().detail).toBe("Die Inhalte der beiden Passwort-Felder müssen übereinstimmen!");

    expect((await post({ hash: "geheimer-hash", password: "langes-passwort" })).statusCode).toBe(200);
    const [after] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(after?.migrationHash).toBeNull();
    expect((await login(email, "langes-passwort")).statusCode).toBe(200);
    expect((await post({ hash: "geheimer-hash", password: "noch-ein-passwort" })).statusCode).toBe(400);
  });
});

describe("rate limits", () => {
  it("blocks an address from one client after 10 failed logins with 429 in German, even with the right password", async () => {
    const email = uniqueEmail("brute");
    await registerAndConfirm(email);
    for (let i = 0; i < 10; i += 1) {
      expect((await login(email, `falsch-${i}`)).statusCode).toBe(401);
    }
    const blocked = await login(email);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().title).toBe("Zu viele Anfragen");
    // the window is read against the app's clock (ADR 0099): a quarter of an hour later it starts again
    try {
      t.clock.advance(15 * 60_000 - 5_000);
      expect((await login(email)).statusCode).toBe(429);
      t.clock.advance(10_000);
      expect((await login(email)).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it("limits forgot-password requests per account", async () => {
    const email = uniqueEmail("vergessen");
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await t.app.inject({ method: "POST", url: "/api/auth/resetPassword/", payload: { email } }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    try {
      t.clock.advance(15 * 60_000 + 5_000);
      const later = await t.app.inject({
        method: "POST",
        url: "/api/auth/resetPassword/",
        payload: { email },
      });
      expect(later.statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it("limits registrations per IP address without affecting other addresses", {
    timeout: 60_000,
  }, async () => {
    const from = (remoteAddress: string) => ({
      ...registerForm(validUser(uniqueEmail("flut"))),
      remoteAddress,
    });
    for (let i = 0; i < 20; i += 1) {
      expect((await t.app.inject(from("203.0.113.7"))).statusCode).toBe(201);
    }
    const blocked = await t.app.inject(from("203.0.113.7"));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ title: "Zu viele Anfragen", detail: expect.any(String) });
    expect((await t.app.inject(from("203.0.113.8"))).statusCode).toBe(201);
  });

  it("limits confirmation resends per account", async () => {
    const email = uniqueEmail("nochmal");
    expect((await t.app.inject(registerForm(validUser(email)))).statusCode).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await t.app.inject({ method: "POST", url: "/api/register/resend", payload: { email } })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
