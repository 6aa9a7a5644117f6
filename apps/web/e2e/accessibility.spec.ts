/**
 * axe-core (WCAG 2.1 A/AA) on every route and with every dialog open. One line per route or dialog opener:
 * a new page or dialog is one more entry in PAGES or DIALOGS.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { ADMIN_TAB_VALUES } from "../src/lib/admin-tabs";
import { E2E_GATED } from "./constants";
import { DEMO, expectAccessible, failedRequest, login, newConfirmedUser, test } from "./fixtures";

/** who looks at the page: nobody, a demo account, or a fresh confirmed account (for pages that change data) */
type Who = "anonymous" | "participant" | "admin" | "new user";

interface PageCase {
  path: string;
  who: Who;
  /** the page's h1, when it is not the first heading to wait for */
  heading?: string | RegExp;
  /** runs before the navigation, e.g. to hold a request so a transient state stays on screen */
  prepare?: (page: Page) => Promise<unknown>;
  /** the refused requests the page shows on purpose (browserErrors.expect) */
  errors?: RegExp[];
}

interface DialogCase {
  name: string;
  path: string;
  who: Who;
  /** opens the dialog (or popover) on the loaded page and returns it */
  open: (page: Page) => Promise<Locator>;
  /** false when the dialog shows a sandboxed iframe axe cannot enter */
  frames?: boolean;
  /** the refused requests the dialog reports on purpose (browserErrors.expect) */
  errors?: RegExp[];
}

const admin = (tab: string) => `/admin/manage?tab=${tab}`;
const ADMIN_TABS = ADMIN_TAB_VALUES;

/** Keeps the checkout lookup pending, so the redirect page stays instead of leaving for the checkout. */
const holdCheckout = (page: Page) => page.route("**/trpc/checkout.url**", () => undefined);

const PAGES: PageCase[] = [
  { path: "/login", who: "anonymous" },
  { path: "/login/4/1", who: "anonymous" },
  { path: "/forgot-password", who: "anonymous" },
  {
    path: "/resetPassword",
    who: "anonymous",
    // the page needs a token from the mail link (validated on submit)
    prepare: (page) =>
      page.addInitScript(() => sessionStorage.setItem("resetPasswordToken", "e2e-token-not-checked-here")),
  },
  { path: "/migration/set-password/1/e2e-hash", who: "anonymous" },
  { path: "/kongresspaket", who: "anonymous" },
  { path: "/datenschutz", who: "anonymous" },
  { path: "/impressum", who: "anonymous" },
  { path: "/barrierefreiheit", who: "anonymous" },
  // an unknown path may be a gated landing page: the server says it is not one
  { path: "/gibt-es-nicht", who: "anonymous", errors: [failedRequest(404, "/trpc/gated.resolve")] },
  { path: "/", who: "participant" },
  { path: "/profile", who: "participant" },
  { path: "/congress/4", who: "participant" },
  { path: "/congress-package/2", who: "participant" },
  { path: "/participation/5", who: "participant" },
  { path: "/participation/6", who: "new user", heading: /Kongress Trauer/ },
  { path: "/participation/8", who: "new user", heading: /Fachtag Kinderschutz/ },
  { path: "/congress-ticket-purchase/6", who: "participant", prepare: holdCheckout },
  { path: "/congress-ticket-package-purchase/6", who: "participant", prepare: holdCheckout },
  { path: "/congress-package-purchase/5", who: "participant", prepare: holdCheckout },
  { path: E2E_GATED.couple.path, who: "new user" },
  { path: "/gibt-es-nicht", who: "participant", errors: [failedRequest(404, "/trpc/gated.resolve")] },
  ...ADMIN_TABS.map((tab): PageCase => ({ path: admin(tab), who: "admin" })),
];

const alertDialog = (page: Page) => page.getByRole("alertdialog").or(page.getByRole("dialog"));
const dialogAfter = (click: (page: Page) => Locator) => async (page: Page) => {
  await click(page).click();
  return alertDialog(page);
};
const button = (name: string | RegExp) => (page: Page) => page.getByRole("button", { name }).first();
/** the edit (or delete) button of a table's first row */
const rowButton = (table: string, action: "bearbeiten" | "löschen") => (page: Page) =>
  page
    .getByRole("table", { name: table })
    .getByRole("button", { name: new RegExp(` ${action}$`) })
    .first();
/** a dialog that opens by itself on arrival */
const arrives = async (page: Page) => alertDialog(page);

const DIALOGS: DialogCase[] = [
  // global alert dialogs
  { name: "Bestätigung fehlgeschlagen", path: "/confirm-mail", who: "anonymous", open: arrives },
  { name: "Nicht angemeldet", path: E2E_GATED.couple.path, who: "anonymous", open: arrives },
  {
    name: "Veranstaltung noch nicht gestartet",
    path: "/congress/5",
    who: "participant",
    open: arrives,
    errors: [failedRequest(403, "/trpc/congress.content")],
  },
  { name: "Paket nicht erworben", path: "/congress-package/4", who: "participant", open: arrives },
  {
    name: "Produkt nicht angeboten",
    path: "/congress-ticket-purchase/5",
    who: "participant",
    open: arrives,
    errors: [failedRequest(403, "/trpc/checkout.url")],
  },
  { name: "Danke für den Kauf", path: "/?custom=pid-5|cat-pac", who: "participant", open: arrives },
  {
    name: "Falsches Passwort",
    path: E2E_GATED.death.path,
    who: "new user",
    errors: [failedRequest(403, "/trpc/gated.unlock")],
    open: async (page) => {
      await page.getByLabel("Passwort").fill("falsch");
      await page.getByLabel("Passwort").press("Enter");
      return alertDialog(page);
    },
  },
  // visitor
  {
    name: "Konto endgültig löschen?",
    path: "/profile",
    who: "new user",
    open: dialogAfter((page) => page.getByRole("button", { name: "Konto löschen …" })),
  },
  {
    name: "Teilnahme stornieren?",
    path: "/",
    who: "participant",
    open: dialogAfter((page) =>
      page
        .getByRole("article", { name: "Frühjahrskongress Resilienz" })
        .getByRole("button", { name: "Teilnahme stornieren" }),
    ),
  },
  {
    name: "Video nach der Zustimmung",
    path: "/congress/4",
    who: "participant",
    open: async (page) => {
      await page
        .getByRole("button", { name: /^Video abspielen/ })
        .first()
        .click();
      await expect(page.locator("iframe")).toHaveCount(1);
      return page.getByRole("main");
    },
  },
  // admin: every create and edit dialog and the delete questions
  {
    name: "Neue Veranstaltung",
    path: admin("events"),
    who: "admin",
    open: dialogAfter(button("Neue Veranstaltung")),
  },
  {
    name: "Zwei-Faktor-Anmeldung einrichten",
    path: admin("dashboard"),
    who: "admin",
    open: dialogAfter(button("Jetzt einrichten")),
  },
  {
    name: "Neue Veranstaltung als Webinar",
    path: admin("events"),
    who: "admin",
    open: async (page) => {
      await button("Neue Veranstaltung")(page).click();
      await page.getByRole("dialog").getByRole("checkbox", { name: "Webinar" }).check();
      return page.getByRole("dialog");
    },
  },
  {
    name: "Veranstaltung bearbeiten",
    path: admin("events"),
    who: "admin",
    open: dialogAfter(rowButton("Veranstaltungen", "bearbeiten")),
  },
  {
    name: "Veranstaltung löschen?",
    path: admin("events"),
    who: "admin",
    open: dialogAfter(rowButton("Veranstaltungen", "löschen")),
  },
  {
    name: "Neues Kongresspaket",
    path: admin("packages"),
    who: "admin",
    open: async (page) => {
      await button("Neues Kongresspaket")(page).click();
      await page.getByRole("dialog").getByRole("button", { name: "Parameter hinzufügen" }).click();
      return page.getByRole("dialog");
    },
  },
  {
    name: "Kongresspaket bearbeiten",
    path: admin("packages"),
    who: "admin",
    open: dialogAfter(rowButton("Kongresspakete", "bearbeiten")),
  },
  {
    name: "Kongresspaket löschen?",
    path: admin("packages"),
    who: "admin",
    open: dialogAfter(rowButton("Kongresspakete", "löschen")),
  },
  ...(["package-orders", "ticket-orders"] as const).map(
    (tab): DialogCase => ({
      name: `Bestellung anlegen (${tab})`,
      path: admin(tab),
      who: "admin",
      open: async (page) => {
        await button("Bestellung anlegen")(page).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Personen suchen (E-Mail)").fill("example.com");
        await dialog.getByRole("list", { name: "Suchergebnisse" }).getByRole("button").first().click();
        return dialog;
      },
    }),
  ),
  {
    name: "Benutzer:in bearbeiten",
    path: admin("users"),
    who: "admin",
    open: dialogAfter(rowButton("Benutzer:innen", "bearbeiten")),
  },
  {
    name: "Benutzer:in löschen?",
    path: admin("users"),
    who: "admin",
    open: dialogAfter(rowButton("Benutzer:innen", "löschen")),
  },
  {
    name: "Inhalt hinzufügen",
    path: admin("contents"),
    who: "admin",
    open: dialogAfter(button("Inhalt hinzufügen")),
  },
  {
    name: "Inhalt bearbeiten",
    path: admin("contents"),
    who: "admin",
    open: dialogAfter(rowButton("Videoinhalte", "bearbeiten")),
  },
  {
    name: "Inhalt löschen?",
    path: admin("contents"),
    who: "admin",
    open: dialogAfter(rowButton("Videoinhalte", "löschen")),
  },
  {
    name: "E-Mail-Template bearbeiten",
    path: admin("mail-templates"),
    who: "admin",
    open: dialogAfter(rowButton("E-Mail-Templates", "bearbeiten")),
  },
  {
    name: "E-Mail-Template mit Vorschau",
    path: admin("mail-templates"),
    who: "admin",
    // the preview is the mail itself in a sandboxed iframe without script
    frames: false,
    open: async (page) => {
      await rowButton("E-Mail-Templates", "bearbeiten")(page).click();
      await page.getByRole("dialog").getByRole("button", { name: "Vorschau" }).click();
      await expect(page.getByRole("dialog").getByRole("region", { name: "Vorschau" })).toBeVisible();
      return page.getByRole("dialog");
    },
  },
  {
    name: "Link einfügen (Editor)",
    path: admin("mail-templates"),
    who: "admin",
    open: async (page) => {
      await rowButton("E-Mail-Templates", "bearbeiten")(page).click();
      await page.getByRole("dialog").getByRole("button", { name: "Link" }).click();
      return page.getByRole("dialog", { name: "Link einfügen" });
    },
  },
];

async function signIn(page: Page, who: Who, request: Parameters<typeof newConfirmedUser>[0]) {
  if (who === "anonymous") {
    return;
  }
  const user =
    who === "participant"
      ? DEMO.participant
      : who === "admin"
        ? DEMO.admin
        : await newConfirmedUser(request, "e2e-a11y");
  await page.goto("/login");
  await login(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

/** Waits until the page has its h1 and nothing is loading any more. */
async function settled(page: Page, heading?: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, ...(heading ? { name: heading } : {}) })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test.describe("every route passes axe", () => {
  for (const c of PAGES) {
    test(`${c.path} (${c.who})`, async ({ page, request, browserErrors }) => {
      for (const error of c.errors ?? []) {
        browserErrors.expect(error);
      }
      await signIn(page, c.who, request);
      await c.prepare?.(page);
      await page.goto(c.path);
      await settled(page, c.heading);
      await expectAccessible(page, c.path);
    });
  }
});

test.describe("every dialog passes axe", () => {
  for (const c of DIALOGS) {
    test(`${c.name} (${c.path})`, async ({ page, request, browserErrors }) => {
      for (const error of c.errors ?? []) {
        browserErrors.expect(error);
      }
      await signIn(page, c.who, request);
      await page.goto(c.path);
      const dialog = await c.open(page);
      await expect(dialog).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectAccessible(page, c.name, { frames: c.frames ?? true });
    });
  }
});
