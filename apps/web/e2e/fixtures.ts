import { mintSession } from "@app/api/testing/mint-session";
import type { Db } from "@app/db";
import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  type Request,
} from "@playwright/test";
import { test as guarded } from "./browser-errors";
import { connectTestDatabase, TestData } from "./data";

export { type BrowserErrors, failedRequest } from "./browser-errors";
export { contentDay, dayFromToday, type TestUser } from "./data";

/**
 * Signs `account` in in a browser (the test's own unless `where` names another page or context), as its
 * login would but without the form: the session is minted in the e2e database by the API's own
 * `startSession` and its cookies are put into the browser. The next page load renews it into an access
 * token like any reload, so call it before `page.goto`. The login form (`login`) is for tests about the
 * login only (scripts/e2e-sign-in.test.ts).
 */
export type SignIn = (account: { email: string }, where?: Page | BrowserContext) => Promise<void>;

/** Playwright's spelling of the API's SameSite values. */
const SAME_SITE = { strict: "Strict", lax: "Lax", none: "None" } as const;

/**
 * Every spec's `test`: the browser error guard (browser-errors.ts); `data`, which makes the rows a test
 * needs in the e2e database and removes them when the test ends (data.ts); `signIn` (above).
 */
export const test = guarded.extend<{ data: TestData; signIn: SignIn }, { testDb: Db }>({
  testDb: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const handle = connectTestDatabase();
      await use(handle.db);
      await handle.close();
    },
    { scope: "worker" },
  ],
  data: async ({ testDb, context }, use) => {
    const data = new TestData(testDb);
    await use(data);
    // the test's pages go first: a request still on its way would meet an account deleted under it (a 401
    // the browser error guard rightly reports), which no visitor ever sees
    for (const page of context.pages()) {
      await page.close();
    }
    await data.remove();
  },
  signIn: async ({ testDb, context, baseURL }, use) => {
    const secret = process.env.E2E_JWT_SECRET;
    if (!baseURL || !secret) {
      throw new Error("signIn needs the baseURL and E2E_JWT_SECRET of playwright.config.ts");
    }
    // what e2e/server.ts starts the API with, as far as a session depends on it
    const env = { NODE_ENV: "production", APP_URL: baseURL, JWT_SECRET: secret } as const;
    const domain = new URL(baseURL).hostname;
    await use(async (account, where = context) => {
      const cookies = await mintSession({ db: testDb, env }, account.email);
      const browser = "addCookies" in where ? where : where.context();
      await browser.addCookies(
        cookies.map((cookie) => ({
          name: cookie.name,
          value: cookie.value,
          domain,
          path: cookie.path,
          expires: Math.floor(Date.now() / 1000) + cookie.maxAgeSeconds,
          httpOnly: cookie.httpOnly,
          secure: cookie.secure,
          sameSite: SAME_SITE[cookie.sameSite],
        })),
      );
    });
  },
});

export const DEMO = {
  participant: { email: "teilnehmer@example.com", password: "demo-user-2026" },
  admin: { email: "admin@example.com", password: "demo-admin-2026" },
};

const mailApi = () => `http://127.0.0.1:${process.env.E2E_MAIL_PORT}`;

interface MailDevMail {
  subject: string;
  html: string;
  to: Array<{ address: string }>;
}

/** Waits for a mail to `to` in MailDev (the mail catcher) and returns it. */
export async function waitForMail(to: string, subject: string): Promise<MailDevMail> {
  let found: MailDevMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${mailApi()}/api/email`)).json()) as MailDevMail[];
        found = mails.find((m) => m.subject === subject && m.to.some((r) => r.address === to));
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  if (!found) {
    throw new Error("unreachable");
  }
  return found;
}

/** The first link in a mail whose path starts with `pathPrefix`, as a path on our origin. */
export function linkIn(mail: MailDevMail, pathPrefix: string): string {
  const match = mail.html.match(new RegExp(`href="https?://[^/"]+(${pathPrefix}[^"]*)"`));
  if (!match?.[1]) {
    throw new Error(`no ${pathPrefix} link in mail "${mail.subject}"`);
  }
  return match[1].replace(/&amp;/g, "&").replace(/&#x3D;/g, "=");
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The overview greeting the signed-in visitor, where a login lands: after `signIn`, with a page load. */
export async function openOverview(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

/**
 * Logs in through the login form on the current page (an argon2id verification on the server): for tests
 * about the login only (scripts/e2e-sign-in.test.ts); every other test takes the `signIn` fixture.
 */
export async function login(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await form.getByLabel("E-Mail").fill(email);
  await form.getByLabel("Passwort").fill(password);
  await form.getByLabel("Passwort").press("Enter");
}

/**
 * Counts the page's requests from now on; `quiet()` waits until none has been on its way for `ms`. Unlike
 * `waitForLoadState("networkidle")`, which a page reached once stays in, it waits for what a navigation
 * inside the app (a login, a click) sent, so a test checks the rows after everything the page asked for.
 */
export function watchRequests(page: Page): { quiet: (ms?: number) => Promise<void> } {
  const inFlight = new Set<Request>();
  let changedAt = Date.now();
  page.on("request", (request) => {
    inFlight.add(request);
    changedAt = Date.now();
  });
  const done = (request: Request) => {
    inFlight.delete(request);
    changedAt = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    // what is still on its way, named in the failure
    quiet: (ms = 500) =>
      expect
        .poll(
          () =>
            inFlight.size > 0
              ? [...inFlight].map((request) => `${request.method()} ${request.url()}`)
              : Date.now() - changedAt >= ms
                ? []
                : ["(quiet for less than the time asked)"],
          { intervals: [100], timeout: 15_000 },
        )
        .toEqual([]),
  };
}

/** From now on the app's scripts (a route's code among them) arrive `ms` late, as on a slow line. */
export async function slowScripts(page: Page, ms: number): Promise<void> {
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/**
 * Hovers a link, then clicks it late, while the route's code still arrives (as on a slow line): a preload the
 * hover started is still running at the click, and the visit must not take the preload's answer for its own.
 */
export async function hoverThenClickOnSlowLine(page: Page, link: Locator): Promise<void> {
  await slowScripts(page, 1500);
  await link.hover();
  await page.waitForTimeout(400);
  await link.click();
}

/**
 * Closes the current dialog of the global alert system with its OK button. The pointer goes onto the dialog
 * first: a message closes by itself 5000 ms after it opened unless the pointer holds it (ADR 0086).
 */
export async function confirmDialog(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page
    .getByRole("dialog")
    .or(page.getByRole("alertdialog"))
    .filter({ has: page.getByRole("heading", { name: title }) });
  await expect(dialog).toBeVisible();
  // at once, without waiting for the dialog's opening animation to settle
  await dialog.hover({ force: true });
  await dialog.getByRole("button", { name: "OK" }).click();
}

/**
 * Counts every dialog that opens in the page from now on, across its client-side navigations (React's
 * development mode runs effects twice: a dialog opened from one would come twice). Read with `dialogsSeen`.
 */
export async function watchDialogs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counted = new WeakSet<Element>();
    const seen: string[] = [];
    Object.assign(window, { dialogsSeen: seen });
    new MutationObserver(() => {
      for (const dialog of document.querySelectorAll('[role="alertdialog"], [role="dialog"]')) {
        if (!counted.has(dialog)) {
          counted.add(dialog);
          seen.push(dialog.textContent ?? "");
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The texts of the dialogs `watchDialogs` has seen open in the current document. */
export function dialogsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { dialogsSeen: string[] }).dialogsSeen);
}

let addresses = 0;
/** A documentation address (RFC 5737) per account, unique per test worker and call. */
const visitorAddress = () => `198.51.${process.pid % 250}.${(++addresses % 250) + 1}`;

/**
 * A new confirmed account, made through the public REST paths and the mail catcher (no UI), for tests of
 * what the registration leaves behind (consents, mails); `data.user()` is quicker for any other account.
 * `data` removes it when the test ends.
 */
export async function newConfirmedUser(request: APIRequestContext, data: TestData, prefix: string) {
  const email = uniqueEmail(prefix);
  data.removeUserAfterwards(email);
  const password = "sicheres-Passwort-1";
  const user = {
    firstname: "Erika",
    lastname: "Muster",
    email,
    password,
    dataProtection: true,
    newsletter: false,
  };
  const registered = await request.post("/api/register/", {
    multipart: { user: JSON.stringify(user) },
    headers: { "x-forwarded-for": visitorAddress() },
  });
  expect(registered.status()).toBe(201);
  const link = linkIn(await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse"), "/confirm-mail/");
  const [, userId, hash] = link.split("/").filter(Boolean);
  const confirmed = await request.post("/api/confirm-mail/", {
    multipart: { userId: userId ?? "", hash: hash ?? "" },
  });
  expect(confirmed.status()).toBe(200);
  return { email, password };
}

/**
 * Runs axe on the current page and expects no WCAG 2.1 AA violations. `frames: false` leaves out the inside of
 * iframes axe cannot enter (a sandboxed preview runs no script); the iframe element itself is still checked.
 * `soft` records the violations and lets the test go on (a test that scans many pages names each one);
 * `include` scans only what the selector matches (a dialog, whose page has its own scan).
 */
export async function expectAccessible(
  page: Page,
  label: string,
  { frames = true, soft = false, include }: { frames?: boolean; soft?: boolean; include?: string } = {},
): Promise<void> {
  const axe = new AxeBuilder({ page });
  if (include) {
    axe.include(include);
  }
  const results = await axe
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .options({ iframes: frames })
    // without frames, one axe.run in the page: the per-frame run would wait for the frame forever
    .setLegacyMode(!frames)
    .analyze();
  const found = results.violations.map(
    (v) => `${v.id} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`,
  );
  (soft ? expect.soft : expect)(found, `${label}: ${found.join(", ")}`).toEqual([]);
}
