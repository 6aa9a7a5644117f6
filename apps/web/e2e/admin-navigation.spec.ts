import { expect, type Page } from "@playwright/test";
import { adminNav, adminSectionLink, openAdminSection } from "./admin-nav";
import { DEMO, expectAccessible, login, test } from "./fixtures";

async function signInAsAdmin(page: Page) {
  await page.goto("/login");
  await login(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

/** The sections' names per group, as the navigation lists them. */
const GROUPS: Record<string, string[]> = {
  "Veranstaltungen & Inhalte": ["Veranstaltungen", "Kongresspakete", "Videoinhalte"],
  Verkauf: ["Paketbestellungen", "Ticketbestellungen", "Zahlungsmeldungen"],
  Personen: ["Benutzer:innen"],
  Kommunikation: ["E-Mail-Templates", "E-Mail-Versand"],
  System: ["Rechtliche Seiten", "Protokoll", "Wissensdatenbank"],
};

test("on a wide screen the sections are a grouped side navigation of links", async ({ page }) => {
  await signInAsAdmin(page);
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
  await expect(page).toHaveURL(/\/admin\/manage\?tab=events$/);
  await expect(congresses).toHaveAttribute("aria-current", "page");
  await expect(adminSectionLink(page, "Übersicht")).not.toHaveAttribute("aria-current");
  await expect(page.getByRole("table", { name: "Veranstaltungen" })).toBeVisible();

  // real links: a middle click opens the section in a new tab
  const [opened] = await Promise.all([
    page.context().waitForEvent("page"),
    nav.getByRole("link", { name: "Protokoll" }).click({ button: "middle" }),
  ]);
  await expect(opened).toHaveURL(/\/admin\/manage\?tab=audit$/);
  await expect(adminSectionLink(opened, "Protokoll")).toHaveAttribute("aria-current", "page");
  await expect(opened.getByRole("table", { name: "Protokoll" })).toBeVisible();
  await opened.close();
  await expect(page).toHaveURL(/tab=events$/);
});

/** Each section's table and the procedure its first page comes from. */
const FIRST_PAGES: [section: string, procedure: string][] = [
  ["Veranstaltungen", "admin.congresses.getPage"],
  ["Kongresspakete", "admin.packages.getPage"],
  ["Videoinhalte", "admin.contents.getPage"],
  ["Paketbestellungen", "orders.list"],
  ["Ticketbestellungen", "orders.list"],
  ["Zahlungsmeldungen", "admin.paymentNotifications.list"],
  ["Benutzer:innen", "admin.users.list"],
  ["E-Mail-Templates", "admin.mailTemplates.getPage"],
  ["E-Mail-Versand", "admin.mailOutbox.list"],
  ["Protokoll", "admin.audit.list"],
];

/** Counts the calls of each procedure (a batched request counts for each procedure it carries). */
function countCalls(page: Page): Map<string, number> {
  const calls = new Map<string, number>();
  page.on("request", (request) => {
    const match = new URL(request.url()).pathname.match(/^\/trpc\/(.+)$/);
    for (const path of match?.[1]?.split(",") ?? []) {
      calls.set(path, (calls.get(path) ?? 0) + 1);
    }
  });
  return calls;
}

test("hovering a section's link loads its first page, which the section then shows without asking again", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto("/admin/manage?tab=knowledge");
  const calls = countCalls(page);
  for (const [section, procedure] of FIRST_PAGES) {
    // both order sections ask `orders.list` (with their kind): counted from the section on
    const before = calls.get(procedure) ?? 0;
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname.includes(procedure));
    await adminSectionLink(page, section).hover();
    await asked;
    expect(calls.get(procedure), procedure).toBe(before + 1);
    await openAdminSection(page, section);
    // the rows shown are the hovered answer's: a section asking with other input would ask again
    await expect(page.getByRole("table", { name: section })).toHaveAttribute("aria-busy", "false");
    expect(calls.get(procedure), procedure).toBe(before + 1);
  }
});

test("a section opens from its address, the payment notifications with an order number", async ({ page }) => {
  await signInAsAdmin(page);
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("admin.paymentNotifications.list")) {
      asked.push(new URL(request.url()).searchParams.get("input") ?? "");
    }
  });
  await page.goto("/admin/manage?tab=payment-notifications&order=E2E-ORDER-1");
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
  await expect(page).toHaveURL(/tab=knowledge$/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the sections are a menu behind the button Bereiche", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/manage?tab=events");
    const nav = adminNav(page);
    const menu = nav.getByRole("button", { name: "Bereiche: Veranstaltungen" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link")).toHaveCount(0);
    // the content starts below the button, full width
    await expect(page.getByRole("table", { name: "Veranstaltungen" })).toBeVisible();

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link")).toHaveCount(13);
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
    await expect(page).toHaveURL(/tab=ticket-orders$/);
    const chosen = nav.getByRole("button", { name: "Bereiche: Ticketbestellungen" });
    await expect(chosen).toHaveAttribute("aria-expanded", "false");
    await expect(chosen).toBeFocused();
    await expect(page.getByRole("table", { name: "Ticketbestellungen" })).toBeVisible();

    await openAdminSection(page, "Benutzer:innen");
    await expect(page.getByRole("table", { name: "Benutzer:innen" })).toBeVisible();
    await expectAccessible(page, "Benutzer:innen (Telefon)");
  });
});
