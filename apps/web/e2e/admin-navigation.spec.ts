import { ADMIN_PAGE_SIZE } from "@app/shared";
import { expect, type Page } from "@playwright/test";
import { adminNav, adminSectionLink, openAdminSection } from "./admin-nav";
import { DEMO, expectAccessible, openOverview, test } from "./fixtures";

/** The sections' names per group, as the navigation lists them. */
const GROUPS: Record<string, string[]> = {
  "Veranstaltungen & Inhalte": [
    "Veranstaltungen",
    "Kongresspakete",
    "Videoinhalte",
    "Fortbildung",
    "Lernerfolgskontrollen",
    "Bescheinigungen",
  ],
  Verkauf: ["Paketbestellungen", "Ticketbestellungen", "Zahlungsmeldungen"],
  Personen: ["Benutzer:innen"],
  Kommunikation: ["E-Mail-Templates", "E-Mail-Versand"],
  System: ["Rechtliche Seiten", "Protokoll", "Wissensdatenbank"],
};

test("on a wide screen the sections are a grouped side navigation of links", async ({ page, signIn }) => {
  await signIn(DEMO.admin);
  await openOverview(page);
  // a hover on the way there already asks for the overview's figures (the route's loader)
  const figures = page.waitForRequest(/\/trpc\/[^?]*admin\.getDashboard/);
  await page.getByRole("link", { name: "Administration" }).hover();
  await figures;
  await page.getByRole("link", { name: "Administration" }).click();
  const nav = adminNav(page);
  await expect(nav.getByRole("button", { name: /^Bereiche/ })).toBeHidden();
  await expect(adminSectionLink(page, "Übersicht")).toHaveAttribute("aria-current", "page");
  for (const [group, sections] of Object.entries(GROUPS)) {
    await expect(nav.getByRole("list", { name: group }).getByRole("link")).toHaveText(sections);
  }
  // beside the content, not above it
  const navBox = await nav.boundingBox();
  const contentBox = await page.getByRole("region", { name: "E-Mail-Versand" }).boundingBox();
  expect(navBox && contentBox && navBox.x + navBox.width <= contentBox.x).toBe(true);

  // a hover on a section's link already asks for the section's first page (the loader), before any click
  const congresses = nav.getByRole("link", { name: "Veranstaltungen", exact: true });
  const eventsPage = page.waitForRequest(/\/trpc\/[^?]*admin\.congresses\.getPage/);
  await congresses.hover();
  await eventsPage;
  // the keyboard: Enter on a link opens its section, which the navigation then marks as the current one
  await congresses.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/manage\/events$/);
  await expect(congresses).toHaveAttribute("aria-current", "page");
  await expect(adminSectionLink(page, "Übersicht")).not.toHaveAttribute("aria-current");
  await expect(page.getByRole("table", { name: "Veranstaltungen" })).toBeVisible();

  // real links: a middle click opens the section in a new tab
  const [opened] = await Promise.all([
    page.context().waitForEvent("page"),
    nav.getByRole("link", { name: "Protokoll" }).click({ button: "middle" }),
  ]);
  await expect(opened).toHaveURL(/\/admin\/manage\/audit$/);
  await expect(adminSectionLink(opened, "Protokoll")).toHaveAttribute("aria-current", "page");
  await expect(opened.getByRole("table", { name: "Protokoll" })).toBeVisible();
  await opened.close();
  await expect(page).toHaveURL(/\/events$/);
});

/** Each section's table, the procedure its first page comes from and what its input holds. */
const FIRST_PAGES: [section: string, procedure: string, input?: string][] = [
  ["Veranstaltungen", "admin.congresses.getPage"],
  ["Kongresspakete", "admin.packages.getPage"],
  ["Videoinhalte", "admin.contents.getPage"],
  ["Paketbestellungen", "orders.list", '"kind":"package"'],
  ["Ticketbestellungen", "orders.list", '"kind":"ticket"'],
  ["Zahlungsmeldungen", "admin.paymentNotifications.list"],
  ["Benutzer:innen", "admin.users.list"],
  ["E-Mail-Templates", "admin.mailTemplates.getPage"],
  ["E-Mail-Versand", "admin.mailOutbox.list"],
  ["Protokoll", "admin.audit.list"],
];

/** Every call the page makes: procedure and input (a batched request carries several). */
function recordCalls(page: Page): { procedure: string; input: string }[] {
  const calls: { procedure: string; input: string }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const match = url.pathname.match(/^\/trpc\/(.+)$/);
    const inputs = JSON.parse(url.searchParams.get("input") ?? "{}") as Record<string, unknown>;
    for (const [index, procedure] of (match?.[1]?.split(",") ?? []).entries()) {
      calls.push({ procedure, input: JSON.stringify(inputs[index] ?? null) });
    }
  });
  return calls;
}

test("hovering a section's link loads its first page, which the section then shows without asking again", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/knowledge");
  const calls = recordCalls(page);
  for (const [section, procedure, input = ""] of FIRST_PAGES) {
    const asked = () => calls.filter((c) => c.procedure === procedure && c.input.includes(input)).length;
    await adminSectionLink(page, section).hover();
    // asked once: by this hover, or by one on the way (a section opened beside the pointer moves the links
    // under it, and every link the pointer enters loads its section)
    await expect.poll(asked, { message: `${procedure} ${input}` }).toBe(1);
    await openAdminSection(page, section);
    // the rows shown are the hovered answer's: a section asking with other input would ask again
    await expect(page.getByRole("table", { name: section })).toHaveAttribute("aria-busy", "false");
    expect(asked(), `${procedure} ${input}`).toBe(1);
  }
});

test("a section opens from its address, the payment notifications with an order number", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await openOverview(page);
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("admin.paymentNotifications.list")) {
      asked.push(new URL(request.url()).searchParams.get("input") ?? "");
    }
  });
  await page.goto("/admin/manage/payment-notifications?order=E2E-ORDER-1");
  await expect(adminSectionLink(page, "Zahlungsmeldungen")).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Bestellnummer")).toHaveValue("E2E-ORDER-1");
  // the route's loader asked with the order number, and the section shows that answer
  await expect(page.getByRole("table", { name: "Zahlungsmeldungen" })).toHaveAttribute("aria-busy", "false");
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('"orderNumber":"E2E-ORDER-1"');
  // an unknown section is the overview
  await page.goto("/admin/manage?tab=gibt-es-nicht");
  await expect(adminSectionLink(page, "Übersicht")).toHaveAttribute("aria-current", "page");
  await openAdminSection(page, "Wissensdatenbank");
  await expect(page).toHaveURL(/\/knowledge$/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the sections are a menu behind the button Bereiche", async ({ page, signIn }) => {
    await signIn(DEMO.admin);
    await page.goto("/admin/manage/events");
    const nav = adminNav(page);
    const menu = nav.getByRole("button", { name: "Bereiche: Veranstaltungen" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link")).toHaveCount(0);
    // the content starts below the button, full width
    await expect(page.getByRole("table", { name: "Veranstaltungen" })).toBeVisible();

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    // the overview and every grouped section
    await expect(nav.getByRole("link")).toHaveCount(1 + Object.values(GROUPS).flat().length);
    await expect(nav.getByRole("link", { name: "Veranstaltungen", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expectAccessible(page, "Bereiche (Telefon)");
    // Escape folds it and leaves the focus on the button
    await nav.getByRole("link", { name: "Übersicht" }).focus();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    // choosing a section folds the menu; the button names the section and keeps the focus
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: "Ticketbestellungen" }).click();
    await expect(page).toHaveURL(/\/ticket-orders$/);
    const chosen = nav.getByRole("button", { name: "Bereiche: Ticketbestellungen" });
    await expect(chosen).toHaveAttribute("aria-expanded", "false");
    await expect(chosen).toBeFocused();
    await expect(page.getByRole("table", { name: "Ticketbestellungen" })).toBeVisible();

    await openAdminSection(page, "Benutzer:innen");
    await expect(page.getByRole("table", { name: "Benutzer:innen" })).toBeVisible();
    await expectAccessible(page, "Benutzer:innen (Telefon)");
  });
});

/** An address with exactly this path and search (however the browser encodes it). */
const address = (path: string, search: Record<string, string>) => (url: URL) =>
  url.pathname === path &&
  JSON.stringify([...url.searchParams].sort()) === JSON.stringify(Object.entries(search).sort());

test("a filtered, paged section opens from a bookmark, and Back goes to the page before", async ({
  page,
  data,
  signIn,
}) => {
  // a page and two more of users only this test's name filter finds, sorted by last name
  const tag = data.title("Lesezeichen");
  for (let n = 1; n <= ADMIN_PAGE_SIZE + 2; n += 1) {
    await data.user({ firstname: tag, lastname: `Nr ${String(n).padStart(2, "0")}` });
  }
  const names = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => new RegExp(`Nr ${String(from + i).padStart(2, "0")}`));
  await signIn(DEMO.admin);
  await openOverview(page);
  const bookmark = `/admin/manage/users?name=${encodeURIComponent(tag)}&page=2`;
  await page.goto(bookmark);

  const table = page.getByRole("table", { name: "Benutzer:innen" });
  const rows = table.getByRole("row").filter({ hasText: tag });
  const pager = page.getByRole("navigation", { name: "Seiten" });
  await expect(adminSectionLink(page, "Benutzer:innen")).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Nach Name filtern")).toHaveValue(tag);
  await expect(pager).toContainText(`Seite 2 von 2 (${ADMIN_PAGE_SIZE + 2} Einträge)`);
  await expect(rows).toHaveText(names(ADMIN_PAGE_SIZE + 1, ADMIN_PAGE_SIZE + 2));

  // another page is another address
  await pager.getByRole("button", { name: "Zurück" }).click();
  await expect(pager).toContainText(`Seite 1 von 2 (${ADMIN_PAGE_SIZE + 2} Einträge)`);
  await expect(rows).toHaveText(names(1, ADMIN_PAGE_SIZE));
  await expect(page).toHaveURL(address("/admin/manage/users", { name: tag }));

  // the browser's Back button: the bookmarked page again, still filtered
  await page.goBack();
  await expect(page).toHaveURL(address("/admin/manage/users", { name: tag, page: "2" }));
  await expect(pager).toContainText(`Seite 2 von 2 (${ADMIN_PAGE_SIZE + 2} Einträge)`);
  await expect(rows).toHaveText(names(ADMIN_PAGE_SIZE + 1, ADMIN_PAGE_SIZE + 2));
  await expect(page.getByLabel("Nach Name filtern")).toHaveValue(tag);

  // typing a filter replaces the address (no history entry per word) and starts on page 1: Back from there
  // goes to the page before, the bookmarked one, and the field follows the address
  await page.goForward();
  await expect(page).toHaveURL(address("/admin/manage/users", { name: tag }));
  await page.getByLabel("Nach Name filtern").fill(`${tag} Nr 1`);
  await expect(page).toHaveURL(address("/admin/manage/users", { name: `${tag} Nr 1` }));
  await expect(rows).toHaveText(names(10, 12));
  await page.goBack();
  await expect(page).toHaveURL(address("/admin/manage/users", { name: tag, page: "2" }));
  await expect(page.getByLabel("Nach Name filtern")).toHaveValue(tag);
  await expect(rows).toHaveText(names(ADMIN_PAGE_SIZE + 1, ADMIN_PAGE_SIZE + 2));
});

test("an old link to a section (?tab=) opens the section's address, keeping its order number or filter", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user({ firstname: data.title("Altlink") });
  await signIn(DEMO.admin);
  await page.goto("/admin/manage?tab=payment-notifications&order=E2E-ORDER-2");
  await expect(page).toHaveURL(address("/admin/manage/payment-notifications", { order: "E2E-ORDER-2" }));
  await expect(adminSectionLink(page, "Zahlungsmeldungen")).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Bestellnummer")).toHaveValue("E2E-ORDER-2");

  await page.goto(`/admin/manage?tab=users&email=${encodeURIComponent(user.email)}`);
  await expect(page).toHaveURL(address("/admin/manage/users", { email: user.email }));
  const table = page.getByRole("table", { name: "Benutzer:innen" });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toContainText(user.email);

  await page.goto("/admin/manage?tab=dashboard");
  await expect(page).toHaveURL(/\/admin\/manage$/);
  await expect(adminSectionLink(page, "Übersicht")).toHaveAttribute("aria-current", "page");
});

test("a section's address with values it cannot hold opens with its defaults instead of an error", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await openOverview(page);
  const lists: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const calls = url.pathname.replace(/^\/trpc\//, "").split(",");
    const at = calls.indexOf("admin.audit.list");
    if (url.pathname.startsWith("/trpc/") && at >= 0) {
      lists.push(JSON.stringify(JSON.parse(url.searchParams.get("input") ?? "{}")[at]));
    }
  });
  await page.goto("/admin/manage/audit?page=zwei&entity=gibt-es-nicht&actor=admin:abc&from=2026-02-31&to=x");
  await expect(page.getByRole("table", { name: "Protokoll" })).toHaveAttribute("aria-busy", "false");
  await expect(page.getByText("Fehler beim Laden der Daten")).toHaveCount(0);
  expect(lists).toHaveLength(1);
  expect(JSON.parse(lists[0] ?? "").json).toEqual({ page: 1 });

  await page.goto("/admin/manage/users?page=-3&name=");
  await expect(page.getByRole("table", { name: "Benutzer:innen" })).toHaveAttribute("aria-busy", "false");
  await expect(page.getByLabel("Nach Name filtern")).toHaveValue("");
});

test("a section whose data fails to load shows the German error inside the administration", async ({
  page,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(/status of 500 .*\/trpc\/[^ ]*admin\.users\.list/);
  browserErrors.expect(/^TRPCClientError: Die Liste ist gerade nicht erreichbar\./);
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.route("**/trpc/*admin.users.list*", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      headers: { "x-request-id": "e2e-users-500" },
      body: JSON.stringify(
        new URL(route.request().url()).pathname
          .replace(/^\/trpc\//, "")
          .split(",")
          .map(() => ({
            error: {
              json: {
                message: "Die Liste ist gerade nicht erreichbar.",
                code: -32603,
                data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, title: "Fehler", detail: "x" },
              },
            },
          })),
      ),
    }),
  );
  await page.goto("/admin/manage");
  await openAdminSection(page, "Benutzer:innen");

  const main = page.getByRole("main");
  // the administration stays: its heading, the navigation with the failed section marked
  await expect(main.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
  await expect(adminSectionLink(page, "Benutzer:innen")).toHaveAttribute("aria-current", "page");
  const failure = main.getByRole("alert").filter({ hasText: "Fehler beim Laden der Daten" });
  await expect(failure).toContainText(
    "Die Benutzer:innen konnten nicht geladen werden. Bitte wenden Sie sich an den technischen Support, wenn das Problem bestehen bleibt.",
  );
  await expect(main.getByText("e2e-users-500")).toBeVisible();
  // the spec's error message with the same words closes by itself (ADR 0086)
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  // once the server answers again, "Erneut versuchen" loads the section
  await page.unroute("**/trpc/*admin.users.list*");
  await failure.getByRole("button", { name: "Erneut versuchen" }).click();
  // (a reload of every match of the page: slow when the machine is busy)
  await expect(page.getByRole("table", { name: "Benutzer:innen" })).toHaveAttribute("aria-busy", "false", {
    timeout: 30_000,
  });
  // another section opens as usual
  await openAdminSection(page, "Protokoll");
  await expect(page.getByRole("table", { name: "Protokoll" })).toBeVisible();
});
