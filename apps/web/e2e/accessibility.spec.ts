/**
 * axe-core (WCAG 2.1 A/AA) on every route, and with each dialog open that needs the server; the other dialogs
 * are scanned in component tests (ADR 0138). One line per route or dialog opener: a new page is one more entry
 * in PAGES. Each role visits its cases with one session (ADR 0139).
 */
import { readdirSync } from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";
import { E2E_GATED } from "./constants";
import { TestData, type TestUser } from "./data";
import { DEMO, dayFromToday, expectAccessible, failedRequest, test } from "./fixtures";

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
  /** the scan covers the open dialog (the page behind it has a scan of its own), or with "page" the whole page */
  scope?: "dialog" | "page";
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

/**
 * The dialogs whose content or opening needs the server; every other dialog is scanned in a component test
 * (the `*.browser.test.tsx` files of src, ADR 0138).
 */
const DIALOGS: DialogCase[] = [
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
    scope: "page",
  },
  {
    // the secret and its QR code come from the server
    name: "Zwei-Faktor-Anmeldung einrichten",
    path: admin("dashboard"),
    who: "admin",
    open: dialogAfter(button("Jetzt einrichten")),
  },
  {
    name: "E-Mail-Template mit Vorschau",
    path: admin("mail-templates"),
    who: "admin",
    // the preview is the mail itself, rendered by the server, in a sandboxed iframe without script
    frames: false,
    open: async (page) => {
      await rowButton("E-Mail-Templates", "bearbeiten")(page).click();
      await page.getByRole("dialog").getByRole("button", { name: "Vorschau" }).click();
      await expect(page.getByRole("dialog").getByRole("region", { name: "Vorschau" })).toBeVisible();
      return page.getByRole("dialog");
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
    for (const who of ROLES.filter((role) => cases.some((c) => c.who === role))) {
      const mine = cases.filter((c) => c.who === who);
      test(`${who}: ${mine.length}`, async ({ context, data, testDb, browserErrors, signIn }) => {
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
            // each case in a tab of its own (what it holds or plants goes with the tab), and its events with it:
            // the overview is shared by the tests running at once (e2e/data.ts)
            const own = new TestData(testDb);
            const tab = await context.newPage();
            try {
              await visit(tab, c, { data: own, user });
            } finally {
              await tab.close();
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
      include: c.scope === "page" ? undefined : '[role="dialog"], [role="alertdialog"]',
    });
  },
);
