import { schema } from "@app/db";
import { MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trpcMutation } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { confirmationLink } from "./register";

/**
 * The address a guard sent a visitor from (`/login?redirect=…`, ADR 0081) survives the registration: the
 * confirmation mail's link carries it, and only when it is a path of this app.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++counter}@example.com`;
// a client address of this file's own: the per-IP registration limit of other files' tests stays apart
const ip = "198.51.100.41";

const registration = (email: string, redirect?: unknown) => ({
  firstname: "Erika",
  lastname: "Muster",
  email,
  password: "sicheres-Passwort-1",
  dataProtection: true,
  newsletter: false,
  ...(redirect !== undefined && { redirect }),
});

const decodeHtml = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, "&");

/** The confirmation link of the mail to `email`, as a URL. */
async function mailedLink(email: string): Promise<URL> {
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes(email) && m.subject === "Bitte bestätigen Sie Ihre E-Mail-Adresse",
  );
  const href = mail.html.match(/href="(http:\/\/app\.test\/confirm-mail\/[^"]+)"/)?.[1];
  expect(href, mail.html).toBeDefined();
  const url = new URL(decodeHtml(href ?? ""));
  // the mail's text says the same
  expect(mail.text).toContain(url.href);
  return url;
}

const OUTSIDE = [
  "https://evil.example.com/congress-ticket-purchase/6",
  "//evil.example.com",
  "/\\evil.example.com",
  "/\\/evil.example.com",
  "/x\ty",
  "javascript:alert(1)",
  "/login?redirect=https://evil.example.com",
  "congress-ticket-purchase/6",
];

describe("registration from a guarded link", () => {
  it("mails a confirmation link that carries the guarded address, path and search", async () => {
    const email = uniqueEmail("rueckweg");
    const target = "/congress-ticket-purchase/6?utm_source=newsletter&x=a b";
    const res = await trpcMutation(t, "auth.register", registration(email, target), { ip });
    expect(res.status).toBe(200);

    const url = await mailedLink(email);
    const [user] = await t.db.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(url.pathname).toMatch(new RegExp(`^/confirm-mail/${user?.id}/[\\w-]{43}$`));
    expect(url.searchParams.get("redirect")).toBe(target);
    expect([...url.searchParams.keys()]).toEqual(["redirect"]);
  });

  it("keeps the spec's link without one", async () => {
    const email = uniqueEmail("ohne-rueckweg");
    expect((await trpcMutation(t, "auth.register", registration(email), { ip })).status).toBe(200);
    const url = await mailedLink(email);
    expect(url.search).toBe("");
  });

  it.each(OUTSIDE)("refuses %j: no account, no mail", async (outside) => {
    const email = uniqueEmail("fremd");
    const res = await trpcMutation(t, "auth.register", registration(email, outside), { ip });
    expect(res.status).toBe(400);
    expect(res.error?.detail).toContain(MSG.returnAddressInvalid);
    expect(await t.db.db.select().from(schema.users).where(eq(schema.users.email, email))).toEqual([]);
    expect(
      await t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toEmail, email)),
    ).toEqual([]);
  });

  it("carries it in a resent confirmation too, and refuses an outside one there", async () => {
    const email = uniqueEmail("nochmal-rueckweg");
    expect((await trpcMutation(t, "auth.register", registration(email), { ip })).status).toBe(200);
    await mailedLink(email);
    const refused = await trpcMutation(
      t,
      "auth.resendConfirmation",
      { email, redirect: "//evil.example.com" },
      { ip },
    );
    expect(refused.status).toBe(400);
    expect(refused.error?.detail).toContain(MSG.returnAddressInvalid);

    const target = "/participation/8";
    const resent = await trpcMutation(t, "auth.resendConfirmation", { email, redirect: target }, { ip });
    expect(resent.status).toBe(200);
    const mails = () => t.smtp.mails.filter((m) => m.to.includes(email));
    await expect.poll(() => mails().length).toBe(2);
    const href = mails()[1]?.html.match(/href="(http:\/\/app\.test\/confirm-mail\/[^"]+)"/)?.[1] ?? "";
    expect(new URL(decodeHtml(href)).searchParams.get("redirect")).toBe(target);
  });
});

describe("confirmationLink", () => {
  it("puts only a path of this app into a link, whoever calls it", () => {
    const link = "http://app.test/confirm-mail/1/token";
    expect(confirmationLink(link, undefined)).toBe(link);
    expect(confirmationLink(link, "/profile?a=1&b=2")).toBe(`${link}?redirect=%2Fprofile%3Fa%3D1%26b%3D2`);
    for (const outside of OUTSIDE) {
      expect(() => confirmationLink(link, outside), outside).toThrow(
        expect.objectContaining({ code: "BAD_REQUEST", userMessage: MSG.returnAddressInvalid }),
      );
    }
  });
});
