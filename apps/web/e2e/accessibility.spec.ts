/**
 * axe-core (WCAG 2.1 A/AA) on every route and with every dialog open. One line per route or dialog opener:
 * a new page or dialog is one more entry in PAGES or DIALOGS.
 */
import { readdirSync } from "node:fs";
import { expect, request as http, type Locator, type Page } from "@playwright/test";
import { E2E_GATED } from "./constants";
import { TestData, type TestUser } from "./data";
import { contentDay, DEMO, dayFromToday, expectAccessible, failedRequest, test } from "./fixtures";
import { sendPayment } from "./payments";

/** who looks at the page: nobody, the demo admin, or an account of the test's own ("participant") */
type Who = "anonymous" | "participant" | "admin";

/** The test's data and the account it signs in with (a fresh one for "anonymous" too, never signed in). */
interface Scene {
  data: TestData;
  user: TestUser;
}
/** Where a test goes, and the title of what it made there (for the dialog to open). */
interface Target {
  path: string;
  title?: string;
}
/** A path, or how to make the data its page shows. */
type Path = string | ((scene: Scene) => Promise<Target>);

interface PageCase {
  /** the test's name, when the path is made */
  name?: string;
  path: Path;
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
  path: Path;
  who: Who;
  /** opens the dialog (or popover) on the loaded page and returns it */
  open: (page: Page, target: Target) => Promise<Locator>;
  /** false when the dialog shows a sandboxed iframe axe cannot enter */
  frames?: boolean;
  /** what the scan covers when it is not the open dialog (the page behind it has a scan of its own) */
  scope?: string;
  /** the refused requests the dialog reports on purpose (browserErrors.expect) */
  errors?: RegExp[];
}

/** a section of the administration by its path segment; "dashboard" is the overview, /admin/manage itself */
const admin = (tab: string) => (tab === "dashboard" ? "/admin/manage" : `/admin/manage/${tab}`);

/** The scenes of the visitor's pages: each makes what its page shows and returns the path. */
const running = async ({ data, user }: Scene) => ({
  path: `/congress/${(await data.runningCongress(user.id)).id}`,
});
/** an event that has not started, the account taking part (free) */
const takingPart = async ({ data, user }: Scene) => {
  const congress = await data.congress({ firstDay: dayFromToday(21), lastDay: dayFromToday(23) });
  await data.participation(user.id, congress.id);
  return congress;
};
const futureTakingPart = async (scene: Scene) => ({ path: `/participation/${(await takingPart(scene)).id}` });
const ticketed = (data: TestData) => data.ticketedCongress({ lastDay: null });
const packageOrdered =
  (status: "paid" | "canceled") =>
  async ({ data, user }: Scene) => {
    const congress = await data.runningCongress(user.id);
    const pkg = await data.package(congress.id);
    await data.packageOrder(user.id, pkg.id, status);
    return { path: `/congress-package/${pkg.id}` };
  };
const at = (path: string): Target => ({ path });
const addPackage = (data: TestData, congress: { id: number }) => data.package(congress.id);
const addContent = async (data: TestData, congress: { id: number; title: string }) => {
  await data.content(congress.id, [contentDay("Tag 1", 1)]);
  return { name: `Inhalt von ${congress.title}` };
};
/** every section: the child route files of /admin/manage (`admin.manage.<section>.tsx`; the index is the overview) */
const ADMIN_TABS = readdirSync(new URL("../src/routes/_admin", import.meta.url)).flatMap((file) => {
  const section = /^admin\.manage\.(.+)\.tsx$/.exec(file)?.[1];
  return section ? [section === "index" ? "dashboard" : section] : [];
});

/** Keeps the checkout lookup pending, so the redirect page stays instead of leaving for the checkout. */
const holdCheckout = (page: Page) => page.route("**/trpc/checkout.getUrl**", () => undefined);

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
  { name: "/congress/$id", path: running, who: "participant" },
  { name: "/congress-package/$id", path: packageOrdered("paid"), who: "participant" },
  // not bought: the page says so itself, with its purchase button (no dialog)
  { name: "/congress-package/$id (nicht erworben)", path: packageOrdered("canceled"), who: "participant" },
  { name: "/participation/$id (taking part)", path: futureTakingPart, who: "participant" },
  {
    name: "/participation/$id (ticket needed)",
    path: async ({ data }) => at(`/participation/${(await ticketed(data)).id}`),
    who: "participant",
  },
  {
    name: "/participation/$id (signed up)",
    path: async ({ data }) =>
      at(`/participation/${(await data.congress({ firstDay: dayFromToday(14) })).id}`),
    who: "participant",
  },
  {
    name: "/congress-ticket-purchase/$id",
    path: async ({ data }) => at(`/congress-ticket-purchase/${(await ticketed(data)).id}`),
    who: "participant",
    prepare: holdCheckout,
  },
  {
    name: "/congress-ticket-package-purchase/$id",
    path: async ({ data }) => at(`/congress-ticket-package-purchase/${(await ticketed(data)).id}`),
    who: "participant",
    prepare: holdCheckout,
  },
  {
    name: "/congress-package-purchase/$id",
    path: async ({ data }) => {
      const congress = await data.congress({ firstDay: dayFromToday(21) });
      return at(`/congress-package-purchase/${(await data.package(congress.id)).id}`);
    },
    who: "participant",
    prepare: holdCheckout,
  },
  { path: E2E_GATED.couple.path, who: "participant" },
  { path: "/gibt-es-nicht", who: "participant", errors: [failedRequest(404, "/trpc/gated.resolve")] },
  ...ADMIN_TABS.map((tab): PageCase => ({ path: admin(tab), who: "admin" })),
];

const alertDialog = (page: Page) => page.getByRole("alertdialog").or(page.getByRole("dialog"));
const dialogAfter =
  (click: (page: Page, target: Target) => Locator) => async (page: Page, target: Target) => {
    await click(page, target).click();
    return alertDialog(page);
  };
const button = (name: string | RegExp) => (page: Page) => page.getByRole("button", { name }).first();
/** the edit (or delete) button of a table's first row */
const rowButton = (table: string, action: "bearbeiten" | "löschen") => (page: Page) =>
  page
    .getByRole("table", { name: table })
    .getByRole("button", { name: new RegExp(` ${action}$`) })
    .first();
/** the edit (or delete) button of the row of what the test made (its title in the button's name) */
const ownRowButton =
  (table: string, action: "bearbeiten" | "löschen") =>
  (page: Page, { title = "" }: Target) =>
    page.getByRole("table", { name: table }).getByRole("button", { name: new RegExp(`${title} ${action}$`) });
/** an admin tab with an event of the test's own (and what `extra` adds to it) */
const tabWithCongress =
  (
    tab: string,
    extra?: (data: TestData, congress: { id: number; title: string }) => Promise<{ name: string }>,
  ) =>
  async ({ data }: Scene): Promise<Target> => {
    const congress = await data.congress({ visible: false });
    const title = extra ? (await extra(data, congress)).name : congress.title;
    return { path: admin(tab), title };
  };
/** a dialog that opens by itself on arrival */
const arrives = async (page: Page) => alertDialog(page);

const DIALOGS: DialogCase[] = [
  // global alert dialogs
  { name: "Bestätigung fehlgeschlagen", path: "/confirm-mail", who: "anonymous", open: arrives },
  { name: "Nicht angemeldet", path: E2E_GATED.couple.path, who: "anonymous", open: arrives },
  {
    name: "Veranstaltung noch nicht gestartet",
    path: async (scene) => at(`/congress/${(await takingPart(scene)).id}`),
    who: "participant",
    open: arrives,
    errors: [failedRequest(403, "/trpc/congress.getContent")],
  },
  {
    name: "Kongress nicht gefunden",
    path: "/congress/2000000000",
    who: "participant",
    open: arrives,
    errors: [failedRequest(404, "/trpc/congress.getContent")],
  },
  {
    name: "Produkt nicht angeboten",
    path: async ({ data }) =>
      at(`/congress-ticket-purchase/${(await data.congress({ firstDay: dayFromToday(21) })).id}`),
    who: "participant",
    open: arrives,
    errors: [failedRequest(403, "/trpc/checkout.getUrl")],
  },
  {
    name: "Danke für den Kauf",
    // the thanks come once this purchase's payment notification is in (ADR 0085, ADR 0134)
    path: async ({ data, user }) => {
      const pkg = await data.package((await data.congress({ visible: false })).id);
      const api = await http.newContext({ baseURL: `http://127.0.0.1:${process.env.E2E_PORT}` });
      await sendPayment(api, {
        digistoreHash: await data.digistoreHash(user.id),
        category: "pac",
        id: pkg.id,
        productId: pkg.externalId,
      });
      await api.dispose();
      return at(`/?custom=pid-${pkg.id}|cat-pac`);
    },
    who: "participant",
    open: arrives,
  },
  {
    name: "Falsches Passwort",
    path: E2E_GATED.death.path,
    who: "participant",
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
    who: "participant",
    open: dialogAfter((page) => page.getByRole("button", { name: "Konto löschen …" })),
  },
  {
    name: "Teilnahme stornieren?",
    path: async (scene) => ({ path: "/", title: (await takingPart(scene)).title }),
    who: "participant",
    open: dialogAfter((page, { title }) =>
      page.getByRole("article", { name: title }).getByRole("button", { name: "Teilnahme stornieren" }),
    ),
  },
  {
    name: "Video nach der Zustimmung",
    path: running,
    who: "participant",
    open: async (page) => {
      await page
        .getByRole("button", { name: /^Video abspielen/ })
        .first()
        .click();
      await expect(page.locator("iframe")).toHaveCount(1);
      return page.getByRole("main");
    },
    scope: "main",
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
    name: "Neue Veranstaltung mit Fortbildungspunkten (Webinar)",
    path: admin("events"),
    who: "admin",
    open: async (page) => {
      await button("Neue Veranstaltung")(page).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("checkbox", { name: "Webinar" }).check();
      await dialog.getByRole("checkbox", { name: "Fortbildungspunkte vergeben" }).check();
      await expect(dialog.getByLabel("Webinar-Dauer in Minuten")).toBeVisible();
      return dialog;
    },
  },
  {
    name: "Veranstaltung bearbeiten",
    path: tabWithCongress("events"),
    who: "admin",
    open: dialogAfter(ownRowButton("Veranstaltungen", "bearbeiten")),
  },
  {
    name: "Veranstaltung löschen?",
    path: tabWithCongress("events"),
    who: "admin",
    open: dialogAfter(ownRowButton("Veranstaltungen", "löschen")),
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
    path: tabWithCongress("packages", addPackage),
    who: "admin",
    open: dialogAfter(ownRowButton("Kongresspakete", "bearbeiten")),
  },
  {
    name: "Kongresspaket löschen?",
    path: tabWithCongress("packages", addPackage),
    who: "admin",
    open: dialogAfter(ownRowButton("Kongresspakete", "löschen")),
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
    path: async ({ data }) => {
      // first in the table, which is sorted by last name
      const user = await data.user({ lastname: data.title("Aachen") });
      return { path: admin("users"), title: `${user.firstname} ${user.lastname}` };
    },
    who: "admin",
    open: dialogAfter(ownRowButton("Benutzer:innen", "bearbeiten")),
  },
  {
    name: "Benutzer:in löschen?",
    path: async ({ data }) => {
      // first in the table, which is sorted by last name
      const user = await data.user({ lastname: data.title("Aachen") });
      return { path: admin("users"), title: `${user.firstname} ${user.lastname}` };
    },
    who: "admin",
    open: dialogAfter(ownRowButton("Benutzer:innen", "löschen")),
  },
  {
    name: "Inhalt hinzufügen",
    path: admin("contents"),
    who: "admin",
    open: dialogAfter(button("Inhalt hinzufügen")),
  },
  {
    name: "Inhalt bearbeiten",
    path: tabWithCongress("contents", addContent),
    who: "admin",
    open: dialogAfter(ownRowButton("Videoinhalte", "bearbeiten")),
  },
  {
    name: "Inhalt löschen?",
    path: tabWithCongress("contents", addContent),
    who: "admin",
    open: dialogAfter(ownRowButton("Videoinhalte", "löschen")),
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

/** The account the case signs in with: none, the demo admin, or the test's own. */
function accountOf(who: Who, user: TestUser): { email: string } | null {
  if (who === "anonymous") {
    return null;
  }
  return who === "admin" ? DEMO.admin : user;
}

/** Makes what the case's page shows for the role's account and returns where to go. */
const arrive = (path: Path, scene: Scene): Promise<Target> =>
  typeof path === "string" ? Promise.resolve(at(path)) : path(scene);

const nameOf = (c: { name?: string; path: Path }) => c.name ?? (typeof c.path === "string" ? c.path : "?");

/** Waits until the page has its h1 and nothing is loading any more. */
async function settled(page: Page, heading?: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, ...(heading ? { name: heading } : {}) })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

const ROLES: Who[] = ["anonymous", "participant", "admin"];

/**
 * One test per role and list: one account, signed in once, visits every case of its role in turn. Each case is
 * a step named after it, and its scan a soft expectation, so a failure names each page or dialog that has
 * violations and the others are still scanned. A case's time budget is generous: axe takes seconds per page on
 * a busy machine.
 */
function perRole<C extends { who: Who; errors?: RegExp[] }>(
  title: string,
  cases: C[],
  name: (c: C) => string,
  visit: (page: Page, c: C, scene: Scene) => Promise<void>,
) {
  test.describe(title, () => {
    for (const who of ROLES) {
      const mine = cases.filter((c) => c.who === who);
      test(`${who}: ${mine.length}`, async ({ page, data, testDb, browserErrors, signIn }) => {
        test.setTimeout(30_000 + mine.length * 20_000);
        for (const error of mine.flatMap((c) => c.errors ?? [])) {
          browserErrors.expect(error);
        }
        const user = await data.user();
        const account = accountOf(who, user);
        if (account) {
          await signIn(account);
        }
        for (const c of mine) {
          await test.step(name(c), async () => {
            // each case's events go with it: the overview is shared by the tests running at once (e2e/data.ts)
            const own = new TestData(testDb);
            try {
              await visit(page, c, { data: own, user });
            } finally {
              // what a case held (a pending checkout, say) is let go, and its page left, before its rows go
              await page.unrouteAll({ behavior: "ignoreErrors" });
              await page.goto("about:blank");
              await own.remove();
            }
          });
        }
      });
    }
  });
}

perRole("every route passes axe", PAGES, nameOf, async (page, c, scene) => {
  const target = await arrive(c.path, scene);
  await c.prepare?.(page);
  await page.goto(target.path);
  await settled(page, c.heading);
  await expectAccessible(page, `${nameOf(c)} (${target.path})`, { soft: true });
});

perRole(
  "every dialog passes axe",
  DIALOGS,
  (c) => c.name,
  async (page, c, scene) => {
    const target = await arrive(c.path, scene);
    await page.goto(target.path);
    const dialog = await c.open(page, target);
    await expect(dialog).toBeVisible();
    // the pointer on the dialog holds a message open while axe reads it (ADR 0086)
    await dialog.hover();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expectAccessible(page, c.name, {
      frames: c.frames ?? true,
      soft: true,
      include: c.scope ?? '[role="dialog"], [role="alertdialog"]',
    });
  },
);
