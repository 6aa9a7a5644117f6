/**
 * Keyboard use, announced form errors, status text, reduced motion and small screens (BFSG / WCAG 2.1 AA
 * beyond what axe can see).
 */
import { expect, type Locator, type Page } from "@playwright/test";
import type { TestData } from "./data";
import {
  type BrowserErrors,
  DEMO,
  dayFromToday,
  failedRequest,
  openOverview,
  type SignIn,
  test,
} from "./fixtures";

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 40, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target).catch(() => false)) {
      return;
    }
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

/**
 * Tabbing through the overview focuses the cards of other tests' events and packages too, and a focused link
 * preloads its page: one removed by its test meanwhile answers 404 (ADR 0070).
 */
function allowRemovedPreloads(browserErrors: BrowserErrors) {
  browserErrors.allow(failedRequest(404, "/trpc/congress.getContent"));
  browserErrors.allow(failedRequest(404, "/trpc/packages.getPage"));
}

/** The outline or ring of the focused element: nothing focusable may hide where the focus is. */
function focusIndicator(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) {
      return { element: "body", visible: false };
    }
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1;
    const ring = style.boxShadow !== "none";
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return { element: `${el.tagName.toLowerCase()} "${name}"`, visible: outline || ring };
  });
}

/**
 * Tabs from the current focus through at most `stops` stops, or to the end of the page, and expects a visible
 * indicator at each.
 */
async function expectVisibleFocusOnEachStop(page: Page, stops: number) {
  // the page has rendered everything it was loading (the overview's cards come after its greeting)
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const hidden: string[] = [];
  let seen = 0;
  for (; seen < stops; seen++) {
    await page.keyboard.press("Tab");
    const focus = await focusIndicator(page);
    if (focus.element === "body") {
      break; // past the last stop: the focus went to the browser
    }
    if (!focus.visible) {
      hidden.push(focus.element);
    }
  }
  expect(seen, "focus stops walked").toBeGreaterThan(3);
  expect(hidden, "focused elements without a visible focus indicator").toEqual([]);
}

/** An account taking part in a free event that has not started yet (it offers "Teilnahme stornieren"). */
async function participantOfFutureCongress(data: TestData) {
  const user = await data.user({ firstname: "Tom", lastname: "Teilnehmer" });
  const congress = await data.congress({ firstDay: dayFromToday(21), lastDay: dayFromToday(23) });
  await data.participation(user.id, congress.id);
  return { user, congress };
}

test("the main visitor flow works with the keyboard alone", async ({ page, data, browserErrors }) => {
  allowRemovedPreloads(browserErrors);
  const user = await data.user({ firstname: "Tom", lastname: "Teilnehmer" });
  const congress = await data.runningCongress(user.id);
  // the video host is faked at the wire: the player may only be requested after the consent
  const vimeoRequests: string[] = [];
  await page.route(
    (url) => url.hostname.endsWith("vimeo.com"),
    (route) => {
      vimeoRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>Player</title>" });
    },
  );
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();

  // the skip link comes first and jumps to the content
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Zum Inhalt springen" })).toBeFocused();

  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await tabTo(page, form.getByLabel("E-Mail"));
  await page.keyboard.type(user.email);
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Passwort")).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  // after each navigation the new page's heading has the focus and names the browser tab
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeFocused();
  await expect(page).toHaveTitle(/^Hallo Tom Teilnehmer! – Kongress-Plattform$/);

  // the running event the participant takes part in
  const toVideos = page
    .getByRole("article", { name: congress.title })
    .getByRole("link", { name: "Zu den Videos" });
  await tabTo(page, toVideos, { max: 60 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: congress.title })).toBeFocused();

  const play = page.getByRole("button", { name: /^Video abspielen/ }).first();
  await tabTo(page, play);
  expect(vimeoRequests).toEqual([]);
  await page.keyboard.press("Enter");
  // the player takes the place and the focus of the button
  const player = page.locator("iframe");
  await expect(player).toHaveCount(1);
  await expect(player).toBeFocused();
  expect(await player.getAttribute("src")).toMatch(/^https:\/\/player\.vimeo\.com\/video\/\d+\?dnt=1/);
});

test("the global alert dialog traps the focus, closes with Escape and returns the focus", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  allowRemovedPreloads(browserErrors);
  const { user, congress } = await participantOfFutureCongress(data);
  await signIn(user);
  await openOverview(page);
  const cancel = page
    .getByRole("article", { name: congress.title })
    .getByRole("button", { name: "Teilnahme stornieren" });
  await tabTo(page, cancel, { max: 60 });
  await page.keyboard.press("Enter");
  const question = page.getByRole("alertdialog");
  await expect(question).toBeVisible();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await question.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await question.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(cancel).toBeFocused();
  // Escape answered "no": the participation is still there
  await expect(cancel).toBeVisible();
});

test("an admin dialog traps the focus, closes with Escape and returns the focus", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/packages");
  const create = page.getByRole("button", { name: "Neues Kongresspaket" });
  await tabTo(page, create, { max: 60 });
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Neues Kongresspaket" });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(create).toBeFocused();
});

test("every focus stop shows a visible focus indicator", async ({ page, data, signIn }) => {
  const user = await data.user();
  const congress = await data.runningCongress(user.id);
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await expectVisibleFocusOnEachStop(page, 40);

  await signIn(user);
  await openOverview(page);
  await expectVisibleFocusOnEachStop(page, 60);
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectVisibleFocusOnEachStop(page, 20);
});

test("every focus stop of the administration and its dialogs shows a visible focus indicator", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/events");
  await expect(page.getByRole("table", { name: "Veranstaltungen" })).toBeVisible();
  await expectVisibleFocusOnEachStop(page, 30);
  await page.getByRole("button", { name: "Neue Veranstaltung" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectVisibleFocusOnEachStop(page, 16);
  await page.keyboard.press("Escape");

  await page.goto("/admin/manage/mail-templates");
  await page
    .getByRole("button", { name: / bearbeiten$/ })
    .first()
    .focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog").getByRole("textbox", { name: "Inhalt" })).toBeVisible();
  await expectVisibleFocusOnEachStop(page, 8);
});

test("the date-range picker works with the keyboard", async ({ page, signIn }) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/events");
  await page.getByRole("button", { name: "Neue Veranstaltung" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Neue Veranstaltung" });
  const range = dialog.getByRole("group", { name: "Zeitraum" });
  // the calendar grid is one tab stop; its focused day is today
  const focusedDay = () =>
    page.evaluate(() => (document.activeElement?.closest("[data-day]") as HTMLElement | null)?.dataset.day);
  for (let i = 0; i < 30 && !(await focusedDay()); i++) {
    await page.keyboard.press("Tab");
  }
  const today = await focusedDay();
  expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  // next month (PageDown), the 10th to the 12th by the arrow keys
  await page.keyboard.press("PageDown");
  const start = await focusedDay();
  expect(start?.slice(0, 7)).not.toBe(today?.slice(0, 7));
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  const end = await focusedDay();
  const german = (iso = "") => iso.split("-").reverse().join(".");
  await expect(range.getByText(`${german(start)} – ${german(end)}`)).toBeVisible();
  // the range is also shown on the days, for screen readers in their names
  await expect(range.locator(`[data-day="${start}"]`)).toHaveAttribute("data-selected", "true");
  await expect(range.locator(`[data-day="${end}"]`)).toHaveAttribute("data-selected", "true");
});

test("the rich-text toolbar and its link dialog work with the keyboard", async ({ page, signIn }) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/mail-templates");
  await page.getByRole("button", { name: "participation-confirmation bearbeiten" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  const editor = dialog.getByRole("textbox", { name: "Inhalt" });
  await tabTo(page, editor);
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Tastatur");
  await page.keyboard.press("Shift+Home");

  // the toolbar is one tab stop; the arrow keys move inside it
  const toolbar = dialog.getByRole("toolbar", { name: "Formatierung" });
  await page.keyboard.press("Shift+Tab");
  expect(await toolbar.evaluate((t) => t.contains(document.activeElement))).toBe(true);
  const bold = toolbar.getByRole("button", { name: "Fett" });
  for (let i = 0; i < 12 && !(await isFocused(bold)); i++) {
    await page.keyboard.press("ArrowRight");
  }
  await expect(bold).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor.locator("strong", { hasText: "Tastatur" })).toBeVisible();
  await expect(bold).toHaveAttribute("aria-pressed", "true");

  // End reaches the last button, the link; Escape closes only the link dialog
  await expect(editor).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("End");
  const link = toolbar.getByRole("button", { name: "Link" });
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  const linkDialog = page.getByRole("dialog", { name: "Link einfügen" });
  await expect(linkDialog.getByLabel("Adresse des Links")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(linkDialog).toHaveCount(0);
  await expect(link).toBeFocused();
  await expect(dialog).toBeVisible();

  await page.keyboard.press("Enter");
  await page.keyboard.type("example.com/tastatur");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(linkDialog).toHaveCount(0);
  await expect(editor.locator('a.button[href="https://example.com/tastatur"]')).toHaveText("Tastatur");
  await expect(editor).toBeFocused();
});

/** Opens a mail template as admin, by mouse: for the tests of fast keys in its dialog. */
async function openTemplate({ page, signIn }: { page: Page; signIn: SignIn }) {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/mail-templates");
  await page.getByRole("button", { name: "participation-confirmation bearbeiten" }).click();
  const dialog = page.getByRole("dialog");
  const editor = dialog.getByRole("textbox", { name: "Inhalt" });
  await expect(editor).toBeVisible();
  return { dialog, editor };
}

test("the toolbar formats a selection made just before the focus left the editor", async ({
  page,
  signIn,
}) => {
  const { dialog, editor } = await openTemplate({ page, signIn });
  const bold = dialog.getByRole("toolbar", { name: "Formatierung" }).getByRole("button", { name: "Fett" });
  await editor.focus();
  // what a fast Shift+Home, Shift+Tab does on a busy machine: the browser reports the new selection only
  // after the focus has left the editor
  await editor.evaluate((el) => {
    const greeting = [...el.querySelectorAll("p")].find((p) => p.textContent?.startsWith("Hallo "));
    const text = greeting?.firstChild as Text;
    window.getSelection()?.setBaseAndExtent(text, 0, text, "Hallo".length);
    document.querySelector<HTMLElement>('button[aria-label="Fett"]')?.focus();
  });
  await expect(bold).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor.locator("strong", { hasText: /^Hallo$/ })).toHaveCount(1);
  await expect(editor).toBeFocused();
});

test("a key acts on the selection the browser shows, also before the browser has reported it", async ({
  page,
  signIn,
}) => {
  const { editor } = await openTemplate({ page, signIn });
  await editor.focus();
  // the cursor moved behind "Hallo" and Enter in the same task, as when a key overtakes the selectionchange
  await editor.evaluate((el) => {
    const greeting = [...el.querySelectorAll("p")].find((p) => p.textContent?.startsWith("Hallo "));
    const text = greeting?.firstChild as Text;
    window.getSelection()?.collapse(text, "Hallo".length);
    el.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", keyCode: 13, bubbles: true, cancelable: true }),
    );
  });
  await expect(editor.locator("p", { hasText: /^Hallo$/ })).toHaveCount(1);
  await expect(editor.locator("p", { hasText: /^ ?\{\{userFullName\}\},$/ })).toHaveCount(1);
});

test("Escape closes only the dialog it was pressed in, also right after that dialog opened", async ({
  page,
  signIn,
}) => {
  const { dialog: template, editor } = await openTemplate({ page, signIn });
  // Escape the moment the link dialog has the focus, before the next render (a fast key on a busy machine)
  const focused = await template.getByRole("button", { name: "Link" }).evaluate(async (button) => {
    (button as HTMLElement).click();
    for (let i = 0; i < 1000 && document.activeElement?.getAttribute("placeholder") !== "https://"; i++) {
      await Promise.resolve();
    }
    const input = document.activeElement;
    input?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    return input?.getAttribute("placeholder");
  });
  expect(focused).toBe("https://");
  await expect(page.getByRole("dialog", { name: "Link einfügen" })).toHaveCount(0);
  await expect(template).toHaveCount(1);
  await expect(editor).toBeVisible();
  expect(await template.evaluate((d) => d.contains(document.activeElement))).toBe(true);
});

test("form errors are tied to their fields and announced", async ({ page }) => {
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await form.getByLabel("E-Mail").press("Enter");
  for (const field of [form.getByLabel("E-Mail"), form.getByLabel("Passwort")]) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    expect(describedBy).not.toBe("");
    const message = page.locator(`[id="${describedBy.split(" ").at(-1)}"]`);
    await expect(message).toHaveRole("alert");
    await expect(message).not.toBeEmpty();
    // the message is the field's description for screen readers
    await expect(field).toHaveAccessibleDescription((await message.textContent()) ?? "");
  }
  // correcting a field clears its error
  await form.getByLabel("E-Mail").fill(DEMO.participant.email);
  await expect(form.getByLabel("E-Mail")).not.toHaveAttribute("aria-invalid", "true");

  const register = page.getByRole("region", { name: "Neu hier? Registrieren" });
  await register.getByRole("button", { name: "Registrieren" }).click();
  const consent = register.getByRole("checkbox", { name: /Datenschutzerklärung/ });
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(consent).toHaveAccessibleDescription(/.+/);
  await expect(register.getByLabel("Vorname")).toHaveAttribute("aria-invalid", "true");
});

test("order states are written out, not only coloured", async ({ page, browser, data, signIn }) => {
  const user = await data.user();
  const congress = await data.congress({ visible: false, firstDay: dayFromToday(-60) });
  const other = await data.congress({ visible: false, firstDay: dayFromToday(-60) });
  const paid = await data.package(congress.id);
  const canceled = await data.package(congress.id);
  await data.packageOrder(user.id, paid.id);
  await data.packageOrder(user.id, canceled.id, "canceled");
  await data.ticketOrder(user.id, congress.id);
  await data.ticketOrder(user.id, other.id, "canceled");
  await signIn(user);
  await openOverview(page);
  const packages = page.getByRole("region", { name: "Kongresspakete" });
  await expect(packages.getByRole("article", { name: paid.name })).toContainText("Status: bezahlt");
  await expect(packages.getByRole("article", { name: canceled.name })).toContainText("Status: storniert");

  // the admin in a browser of their own, and only this visitor's orders: other tests add and remove orders
  // in the same tables at the same time
  const admin = await (await browser.newContext()).newPage();
  await signIn(DEMO.admin, admin);
  await openOverview(admin);
  for (const tab of ["package-orders", "ticket-orders"]) {
    await admin.goto(`/admin/manage/${tab}`);
    await admin.getByLabel("Nach E-Mail oder Bestellnummer suchen").fill(user.email);
    const states = admin.getByRole("table").locator("tbody tr td:nth-child(4)");
    await expect.poll(async () => (await states.allTextContents()).sort()).toEqual(["bezahlt", "storniert"]);
  }
  await admin.context().close();
});

test("animations and transitions stop when the visitor prefers reduced motion", async ({
  page,
  data,
  signIn,
}) => {
  const { user, congress } = await participantOfFutureCongress(data);
  await page.goto("/login");
  const submit = page.getByRole("button", { name: "Anmelden" });
  const duration = (locator: Locator, property: "transitionDuration" | "animationDuration") =>
    locator.evaluate((el, p) => Number.parseFloat(getComputedStyle(el)[p]), property);
  expect(await duration(submit, "transitionDuration")).toBeGreaterThan(0.05);

  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await duration(submit, "transitionDuration")).toBeLessThan(0.001);
  await signIn(user);
  await openOverview(page);
  await page
    .getByRole("article", { name: congress.title })
    .getByRole("button", { name: "Teilnahme stornieren" })
    .click();
  const question = page.getByRole("alertdialog");
  await expect(question).toBeVisible();
  expect(await duration(question, "animationDuration")).toBeLessThan(0.001);
  expect(await duration(question.getByRole("button").first(), "transitionDuration")).toBeLessThan(0.001);
});

test.describe("at 320 px width (400 % zoom)", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  const noHorizontalScrolling = async (page: Page, label: string) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${label} is ${width} px wide`).toBeLessThanOrEqual(321);
  };
  const reachable = async (link: Locator) => {
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport();
    const box = await link.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 320).toBe(true);
  };

  /** a page of the participant's data: its path from the running event, a package and a future event */
  type Ids = { running: number; pkg: number; future: number };
  const SMALL_SCREEN_PAGES: { name: string; path: (ids: Ids) => string; who: "anonymous" | "participant" }[] =
    [
      { name: "/login", path: () => "/login", who: "anonymous" },
      { name: "/forgot-password", path: () => "/forgot-password", who: "anonymous" },
      { name: "/", path: () => "/", who: "participant" },
      { name: "/congress/$id", path: (ids) => `/congress/${ids.running}`, who: "participant" },
      { name: "/congress-package/$id", path: (ids) => `/congress-package/${ids.pkg}`, who: "participant" },
      { name: "/participation/$id", path: (ids) => `/participation/${ids.future}`, who: "participant" },
      { name: "/profile", path: () => "/profile", who: "participant" },
    ];

  for (const { name, path: pathOf, who } of SMALL_SCREEN_PAGES) {
    test(`${name} fits and keeps its navigation (${who})`, async ({ page, data, signIn }) => {
      let ids: Ids = { running: 0, pkg: 0, future: 0 };
      if (who === "participant") {
        const { user, congress: future } = await participantOfFutureCongress(data);
        const running = await data.runningCongress(user.id);
        const pkg = await data.package(running.id);
        await data.packageOrder(user.id, pkg.id);
        ids = { running: running.id, pkg: pkg.id, future: future.id };
        await signIn(user);
        await openOverview(page);
      }
      const path = pathOf(ids);
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await noHorizontalScrolling(page, path);
      await reachable(page.getByRole("link", { name: /zur Startseite/ }));
      await reachable(page.getByRole("navigation", { name: "Rechtliches" }).getByRole("link").first());
      if (who === "participant") {
        const menu = page.getByRole("navigation", { name: "Benutzermenü" });
        await reachable(menu.getByRole("button", { name: "Abmelden" }));
        if (path !== "/") {
          await reachable(menu.getByRole("link", { name: "Zur Übersicht" }));
        }
      }
    });
  }
});
