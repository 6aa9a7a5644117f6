/**
 * A followed link survives the login (ADR 0081, ADR 0082): every guarded route of the route tree, opened logged out,
 * comes back after the login with its path and search, and the way there signs the visitor up for nothing and
 * buys nothing; a new visitor gets there through the registration and the mail's confirmation link too;
 * "Abmelden" goes to /login, in every tab of the browser.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import { E2E_GATED, simulatorOrigin } from "./constants";
import type { TestData } from "./data";
import {
  confirmDialog,
  dayFromToday,
  dialogsSeen,
  failedRequest,
  linkIn,
  login,
  openOverview,
  type SignIn,
  type TestUser,
  test,
  uniqueEmail,
  waitForMail,
  watchDialogs,
  watchRequests,
} from "./fixtures";

type Role = "user" | "admin";

/** The pathless layouts that guard their children (`beforeLoad: requireRole(...)`), and the role each needs. */
const GUARDS: Record<string, Role> = { _user: "user", _admin: "admin" };

/**
 * Every route below a guarding layout, read from the generated route tree, so a new route is covered the day
 * it is added: `{ role, template }` with the template as the router writes it (`/congress/$congressId`).
 */
function guardedRoutes(): Array<{ role: Role; template: string }> {
  const tree = readFileSync(resolve(import.meta.dirname, "../src/routeTree.gen.ts"), "utf8");
  const byId = /export interface FileRoutesById \{([\s\S]*?)\n\}/.exec(tree)?.[1];
  if (!byId) {
    throw new Error("FileRoutesById not found in src/routeTree.gen.ts");
  }
  const ids = [...byId.matchAll(/^\s*'([^']+)':/gm)].map((match) => match[1] ?? "");
  const routes: Array<{ role: Role; template: string }> = [];
  for (const id of ids) {
    const layout = /^\/(_[^/]+)(\/.*)?$/.exec(id);
    if (!layout?.[1]) {
      continue;
    }
    const role = GUARDS[layout[1]];
    if (!role) {
      throw new Error(`pathless layout ${layout[1]}: add it to GUARDS (which role does it need?)`);
    }
    const template = layout[2] && (layout[2].length > 1 ? layout[2].replace(/\/$/, "") : "/");
    // a section's index route and its parent are one address (`/admin/manage/` and `/admin/manage`)
    if (template && !routes.some((r) => r.template === template)) {
      routes.push({ role, template });
    }
  }
  return routes;
}

/** What a visitor has and can buy: each page of a guarded route opens with it (and buys or signs up for nothing). */
async function scene(data: TestData, user: TestUser) {
  const running = await data.runningCongress(user.id);
  const owned = await data.package(running.id);
  await data.packageOrder(user.id, owned.id);
  const forSale = await data.ticketedCongress();
  return {
    /** by parameter name */
    params: { congressId: forSale.id, congressPackageId: (await data.package(forSale.id)).id } as Record<
      string,
      number
    >,
    /** where a route's page needs other data than its parameter's default */
    perRoute: {
      "/congress/$congressId": { congressId: running.id },
      "/congress-package/$congressPackageId": { congressPackageId: owned.id },
    } as Record<string, Record<string, number>>,
  };
}

/** A link's search as it comes from a newsletter (the administration: the section it names). */
const searchOf = (template: string) =>
  template === "/admin/manage" ? "?tab=users" : "?utm_source=newsletter";

function fill(template: string, values: Record<string, number>): string {
  return template.replace(/\{-\$(\w+)\}|\$(\w+)/g, (_, optional?: string, required?: string) => {
    const name = optional ?? required ?? "";
    const value = values[name];
    if (value === undefined) {
      throw new Error(`no test value for the parameter ${name} of ${template}: add one to scene()`);
    }
    return String(value);
  });
}

/** Path and search of every address the page's main frame went to, from now on (history API included). */
function addresses(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) {
      const url = new URL(frame.url());
      seen.push(url.origin === new URL(page.url()).origin ? url.pathname + url.search : url.href);
    }
  });
  return seen;
}

/** The login page a guard sends to: /login itself, never /login/<id> (which signs up), with `redirect`. */
async function expectLoginBackTo(page: Page, target: string) {
  await expect(page.getByRole("region", { name: "Ich habe bereits ein Konto" })).toBeVisible();
  const url = new URL(page.url());
  expect(url.pathname).toBe("/login");
  expect(url.searchParams.get("redirect")).toBe(target);
}

/**
 * How a test signs in on the guard's login page: with the form, as the visitor does (one test of each kind
 * of guard, where the login's own return is the subject), or with the `signIn` fixture and a reload of the
 * login page, which sends a signed-in visitor where the login would have (the login route's `beforeLoad`,
 * the same `afterLoginTarget`): what the guarded page then does is the same, without an argon2id login each.
 */
type Way = "form" | "fixture";

/**
 * Follows the link `target` logged out: the guard's login page, the login, and `target` as the first address
 * after it (no detour through a participation), once the page has nothing more on its way. Returns every
 * address the page went to after the login.
 */
async function followLoggedOut(
  { page, signIn }: { page: Page; signIn: SignIn },
  target: string,
  user: TestUser,
  way: Way,
): Promise<string[]> {
  const requests = watchRequests(page);
  await page.goto(target);
  await expectLoginBackTo(page, target);
  const seen = addresses(page);
  if (way === "form") {
    await login(page, user.email, user.password);
  } else {
    await signIn(user);
    const loginAddress = new URL(page.url());
    await page.reload();
    // the reload itself is the first address: the login page, then at once the target
    expect(seen.shift()).toBe(loginAddress.pathname + loginAddress.search);
  }
  await expect.poll(() => seen).toContain(target);
  await requests.quiet();
  expect(seen[0]).toBe(target);
  return seen;
}

const routes = guardedRoutes();
/** the first route of each kind of guard logs in with the form (see `Way`) */
const withForm = new Set(Object.values(GUARDS).map((role) => routes.find((r) => r.role === role)?.template));

for (const route of routes) {
  test(`logged out, ${route.template} comes back after the login and signs up for nothing`, async ({
    page,
    data,
    signIn,
  }) => {
    const user = await data.user({ admin: route.role === "admin" });
    const { params, perRoute } = await scene(data, user);
    const target =
      fill(route.template, { ...params, ...perRoute[route.template] }) + searchOf(route.template);
    const before = await data.rowsOf(user.id);

    const way = withForm.has(route.template) ? "form" : "fixture";
    const seen = await followLoggedOut({ page, signIn }, target, user, way);
    expect(seen.filter((address) => address.startsWith("/participation/") && address !== target)).toEqual([]);
    expect(await data.rowsOf(user.id)).toEqual(before);
  });
}

/** Registers `email` in the registration form of the login page the browser shows. */
async function registerHere(page: Page, email: string, password: string) {
  const form = page.getByRole("region", { name: "Neu hier? Registrieren" });
  await form.getByLabel("Vorname").fill("Erika");
  await form.getByLabel("Nachname").fill("Muster");
  await form.getByLabel("E-Mail").fill(email);
  await form.getByLabel("Passwort").fill(password);
  await form.getByRole("checkbox", { name: /Datenschutzerklärung/ }).check();
  await form.getByRole("button", { name: "Registrieren" }).click();
  await confirmDialog(page, "Fast geschafft!");
}

test("a purchase link survives the registration: the mail's link, opened in another tab, and the first login go there", async ({
  context,
  page,
  data,
}) => {
  // two argon2 hashes, a mail and the checkout: the longest way of this file (50 s on a busy machine)
  test.slow();
  const congress = await data.ticketedCongress();
  const target = `/congress-ticket-purchase/${congress.id}?utm_source=newsletter`;
  const email = uniqueEmail("e2e-rueckweg");
  const password = "sicheres-Passwort-1";
  data.removeUserAfterwards(email);
  await page.goto(target);
  await expectLoginBackTo(page, target);
  await registerHere(page, email, password);

  // the mail opens in another tab: nothing of the first one (its memory, its sessionStorage) goes along
  const link = linkIn(await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse"), "/confirm-mail/");
  const tab = await context.newPage();
  await tab.goto(link);
  await confirmDialog(tab, "E-Mail-Adresse bestätigt");
  await expectLoginBackTo(tab, target);
  const seen = addresses(tab);
  await login(tab, email, password);
  await expect.poll(() => seen).toContain(target);
  expect(seen[0]).toBe(target);
  // the purchase goes on: the checkout, for the new account
  await expect(
    tab.getByRole("heading", { name: `Testkasse: Produkt ${congress.digistoreIdTicket}` }),
  ).toBeVisible();
  expect(tab.url().startsWith(`${simulatorOrigin()}/product/${congress.digistoreIdTicket}?`)).toBe(true);
  expect(new URL(tab.url()).searchParams.get("email")).toBe(email);
});

test("a login page carrying an outside address registers without it: the mail's link leads to login only", async ({
  page,
  data,
}) => {
  const email = uniqueEmail("e2e-fremd");
  const password = "sicheres-Passwort-1";
  data.removeUserAfterwards(email);
  await page.goto(`/login?redirect=${encodeURIComponent("//evil.example.com/congress-ticket-purchase/6")}`);
  await registerHere(page, email, password);
  const mail = await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse");
  expect(mail.html).not.toContain("evil");
  const link = linkIn(mail, "/confirm-mail/");
  expect(link).toMatch(/^\/confirm-mail\/\d+\/[\w-]+$/);
  await page.goto(link);
  await confirmDialog(page, "E-Mail-Adresse bestätigt");
  await expect(page).toHaveURL(/\/login$/);
  await login(page, email, password);
  await expect(page).toHaveURL(/\/$/);
});

test("the event link of a free event (as in the .ics file) comes back after the login without signing up", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the visitor takes no part yet: the event page refuses, with its dialog (spec: event content)
  browserErrors.expect(failedRequest(403, "/trpc/congress.getContent"));
  const user = await data.user();
  const free = await data.congress({ firstDay: dayFromToday(-1), lastDay: dayFromToday(1) });
  const target = `/congress/${free.id}`;
  await followLoggedOut({ page, signIn }, target, user, "fixture");
  await confirmDialog(page, /.+/);
  await expect(page).toHaveURL(/\/$/);
  expect(await data.rowsOf(user.id)).toEqual({ participations: 0, tickets: 0, packages: 0 });
});

test("Abmelden on an event's page goes to /login, and the next person to log in is signed up for nothing", async ({
  page,
  data,
  signIn,
}) => {
  const first = await data.user();
  const next = await data.user();
  const free = await data.congress({ firstDay: dayFromToday(20) });
  await signIn(first);
  await page.goto(`/participation/${free.id}`);
  await expect(page.getByRole("heading", { level: 1, name: free.title })).toBeVisible();
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  const requests = watchRequests(page);
  await login(page, next.email, next.password);
  await expect(page).toHaveURL(/\/$/);
  await requests.quiet();
  expect((await data.rowsOf(next.id)).participations).toBe(0);
});

test("Abmelden in one tab signs out every tab of the browser", async ({ context, page, data, signIn }) => {
  const user = await data.user();
  const free = await data.congress({ firstDay: dayFromToday(20) });
  await data.participation(user.id, free.id);
  await signIn(user);
  await openOverview(page);
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

  // a second tab of the same browser: signed in through the shared refresh cookie, able to cancel
  const other = await context.newPage();
  await other.goto("/");
  const card = other.getByRole("article", { name: free.title });
  await expect(card.getByRole("button", { name: "Teilnahme stornieren" })).toBeVisible();

  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(other).toHaveURL(/\/login$/);
  await expect(other.getByRole("button", { name: "Abmelden" })).toBeHidden();
  await expect(other.getByRole("button", { name: "Teilnahme stornieren" })).toHaveCount(0);
  expect((await data.rowsOf(user.id)).participations).toBe(1);
});

for (const [index, [name, gated]] of Object.entries(E2E_GATED).entries()) {
  test(`the ${name} gated page says "Nicht angemeldet!" once, then goes to login and comes back`, async ({
    page,
    data,
    signIn,
  }) => {
    await watchDialogs(page);
    const user = await data.user();
    await page.goto(gated.path);
    await confirmDialog(page, "Nicht angemeldet!");
    await expectLoginBackTo(page, gated.path);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    expect((await dialogsSeen(page)).filter((text) => text.includes("Nicht angemeldet!"))).toHaveLength(1);

    // the gated pages are a kind of guard of their own: the first logs in with the form (see `Way`)
    if (index === 0) {
      await login(page, user.email, user.password);
    } else {
      await signIn(user);
      await page.reload();
    }
    await expect(page).toHaveURL(new RegExp(`${gated.path}$`));
    await expect(page.getByRole("button", { name: "Freischalten" })).toBeVisible();
  });
}
