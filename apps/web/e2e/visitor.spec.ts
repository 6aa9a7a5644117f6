import { expect, type Page } from "@playwright/test";
import { E2E_GATED, simulatorOrigin } from "./constants";
import {
  confirmDialog,
  DEMO,
  expectAccessible,
  failedRequest,
  login,
  newConfirmedUser,
  test,
} from "./fixtures";

/** Logs in and waits for the overview, so the session cookie is set before the next navigation. */
async function loginAs(page: Page, user: { email: string; password: string }) {
  await page.goto("/login");
  await login(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}
const loginAsParticipant = (page: Page) => loginAs(page, DEMO.participant);

const eventCard = (page: Page, title: string) => page.getByRole("article", { name: title });

test("the overview shows every event and package case of the demo participant", async ({ page }) => {
  await loginAsParticipant(page);
  await expect(page.getByRole("heading", { level: 1, name: "Hallo Tom Teilnehmer!" })).toBeVisible();

  const events = page.getByRole("region", { name: "Aktuelle Veranstaltungen" }).getByRole("article");
  await expect(events).toHaveCount(6);
  // newest first
  await expect(events.first()).toHaveAccessibleName("Eintägiger Fachtag Kinderschutz");

  await expect(
    eventCard(page, "Live-Webinar: Achtsamkeit im Alltag").getByRole("link", { name: /Zum Webinar/ }),
  ).toHaveAttribute("href", "https://example.com/webinar/achtsamkeit");
  await expect(
    eventCard(page, "Online-Kongress Beziehung & Bindung").getByRole("link", { name: "Zu den Videos" }),
  ).toBeVisible();
  await expect(
    eventCard(page, "Frühjahrskongress Resilienz").getByRole("button", { name: "Teilnahme stornieren" }),
  ).toBeVisible();
  await expect(eventCard(page, "Kongress Trauer und Abschied").getByText("Ticket gekauft")).toBeVisible();
  const webinar = eventCard(page, "Webinar: Gewaltfreie Kommunikation");
  await expect(webinar.getByRole("link", { name: "Teilnehmen" })).toBeVisible();
  await expect(webinar.getByText("19:30 Uhr")).toBeVisible();
  await expect(events.filter({ hasText: "Herbstkongress Achtsamkeit" })).toHaveCount(0);
  await expect(events.filter({ hasText: "Entwurf: Sommerkongress" })).toHaveCount(0);

  const packages = page.getByRole("region", { name: "Kongresspakete" });
  const paid = packages.getByRole("article", { name: "Kongresspaket Beziehung & Bindung" });
  await expect(paid.getByText("Status: bezahlt")).toHaveClass(/text-green-800/);
  await expect(paid.getByRole("link", { name: "Kongresspaket öffnen" })).toBeVisible();
  const cancelled = packages.getByRole("article", { name: "Kongresspaket Achtsamkeit" });
  await expect(cancelled.getByText("Status: storniert")).toHaveClass(/text-red-800/);
  await expect(cancelled.getByText("Die Bestellung wurde storniert.")).toBeVisible();
  const later = packages.getByRole("article", { name: "Kongresspaket Resilienz" });
  await expect(later.getByText(/^Verfügbar ab \d{2}\.\d{2}\.\d{4}$/)).toBeVisible();
  // the password-gated packages are not offered on the overview
  await expect(packages.getByText("Kongresspaket Paartherapie")).toHaveCount(0);
});

test("a long description is cut at 100 characters with a more/less toggle", async ({ page }) => {
  await loginAsParticipant(page);
  const card = eventCard(page, "Online-Kongress Beziehung & Bindung");
  const more = card.getByRole("button", { name: "mehr" });
  await expect(more).toHaveAttribute("aria-expanded", "false");
  const short = (await card.locator("p[id]").textContent()) ?? "";
  expect(short.endsWith("…")).toBe(true);
  expect(Array.from(short).length).toBeLessThanOrEqual(101);
  await more.click();
  await expect(card.getByRole("button", { name: "weniger" })).toHaveAttribute("aria-expanded", "true");
  expect(((await card.locator("p[id]").textContent()) ?? "").length).toBeGreaterThan(short.length);
});

test("participate in a free event, then cancel after confirming", async ({ page, request }) => {
  const user = await newConfirmedUser(request, "e2e-participate");
  await loginAs(page, user);
  await eventCard(page, "Eintägiger Fachtag Kinderschutz").getByRole("link", { name: "Teilnehmen" }).click();
  await expect(page).toHaveURL(/\/participation\/8$/);
  await expect(page.getByRole("heading", { name: "Anmeldung bestätigt" })).toBeVisible();

  await page.goto("/participation/8");
  await expect(page.getByRole("status").filter({ hasText: "Sie nehmen bereits teil" })).toBeVisible();

  await page.getByRole("main").getByRole("link", { name: "Zur Übersicht" }).click();
  const card = eventCard(page, "Eintägiger Fachtag Kinderschutz");
  await card.getByRole("button", { name: "Teilnahme stornieren" }).click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText("wirklich stornieren");
  await question.getByRole("button", { name: "Abbrechen" }).click();
  await expect(card.getByRole("button", { name: "Teilnahme stornieren" })).toBeVisible();

  await card.getByRole("button", { name: "Teilnahme stornieren" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Teilnahme stornieren" }).click();
  await expect(card.getByRole("link", { name: "Teilnehmen" })).toBeVisible();
});

test("a ticketed event offers the tickets instead of a free sign-up", async ({ page, request }) => {
  const user = await newConfirmedUser(request, "e2e-ticket");
  await page.goto("/login/6");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/participation\/6$/);
  await expect(page.getByRole("heading", { name: "Ticket erforderlich" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ticket und Kongresspaket kaufen" })).toBeVisible();
  await page.getByRole("link", { name: "Ticket kaufen" }).click();

  // the fake checkout shows what it received
  await expect(page.getByRole("heading", { name: "Testkasse: Produkt 500101" })).toBeVisible();
  expect(page.url().startsWith(`${simulatorOrigin()}/product/500101?`)).toBe(true);
  const url = new URL(page.url());
  expect(url.searchParams.get("email")).toBe(user.email);
  expect(url.searchParams.get("first_name")).toBe("Erika");
  expect(url.searchParams.get("last_name")).toBe("Muster");
  expect(url.searchParams.get("custom")).toMatch(/^uid-[0-9a-f]{32}\|pid-6\|cat-tic$/);
});

test("a package purchase passes the voucher, and the return from the checkout thanks the buyer", async ({
  page,
}) => {
  await loginAsParticipant(page);
  await page.goto("/congress-package-purchase/5");
  await expect(page.getByRole("heading", { name: "Testkasse: Produkt 400005" })).toBeVisible();
  const url = new URL(page.url());
  expect(url.searchParams.get("voucher")).toBe("FRUEHBUCHER");
  expect(url.searchParams.get("custom")).toMatch(/\|pid-5\|cat-pac$/);

  await page.goto("/?custom=pid-5|cat-pac");
  await confirmDialog(page, "Vielen Dank für Ihren Kauf!");
  await expect(page).toHaveURL(/\/$/);
});

test("an unknown product shows the server's error and goes to the overview", async ({
  page,
  browserErrors,
}) => {
  browserErrors.expect(failedRequest(403, "/trpc/checkout.url"));
  await loginAsParticipant(page);
  await page.goto("/congress-ticket-purchase/5");
  await expect(page.getByRole("alertdialog")).toContainText("Dieses Produkt wird derzeit nicht angeboten.");
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a running event shows its videos behind a consent placeholder; tomorrow's day stays hidden", async ({
  page,
}) => {
  const vimeoRequests: string[] = [];
  await page.route(
    (url) => url.hostname.endsWith("vimeo.com"),
    (route) => {
      vimeoRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>Player</title>" });
    },
  );
  await loginAsParticipant(page);
  await page.goto("/congress/4");
  await expect(
    page.getByRole("heading", { level: 1, name: "Online-Kongress Beziehung & Bindung" }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Tag 1: Bindung" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Tag 2: Beziehung" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Tag 3: Familie" })).toHaveCount(0);

  const play = page.getByRole("button", { name: /^Video abspielen/ });
  await expect(play).toHaveCount(6);
  // title and thumbnail come from our server (fetched once from the fake oEmbed endpoint)
  await expect(page.getByText(/^Vortrag \d+$/).first()).toBeVisible();
  await expect(page.locator('img[src^="/uploads/video-previews/"]').first()).toBeAttached();
  expect(vimeoRequests).toEqual([]);
  await expect(page.locator("iframe")).toHaveCount(0);

  await play.first().click();
  const player = page.locator("iframe");
  await expect(player).toHaveCount(1);
  expect(await player.getAttribute("src")).toMatch(/^https:\/\/player\.vimeo\.com\/video\/\d+\?dnt=1/);
});

test("an event that has not started sends the visitor back with a dialog", async ({
  page,
  browserErrors,
}) => {
  browserErrors.expect(failedRequest(403, "/trpc/congress.content"));
  await loginAsParticipant(page);
  await page.goto("/congress/5");
  await expect(page.getByRole("alertdialog")).toContainText("ab dem ersten Veranstaltungstag");
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a bought package shows its videos; a package not bought says so", async ({ page }) => {
  await loginAsParticipant(page);
  await page.goto("/congress-package/2");
  await expect(
    page.getByRole("heading", { level: 1, name: "Kongresspaket Beziehung & Bindung" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Video abspielen/ }).first()).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Empfehlung" })).toContainText(
    "Kongresspaket Resilienz",
  );

  await page.goto("/congress-package/4");
  await expect(page.getByRole("alertdialog")).toContainText("Kongresspaket nicht erworben");
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(page.getByRole("button", { name: /^Video abspielen/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Jetzt kaufen" })).toBeVisible();
});

test("a gated path sends anonymous visitors to login", async ({ page }) => {
  await page.goto(E2E_GATED.couple.path);
  await expect(page.getByRole("alertdialog")).toContainText("Nicht angemeldet!");
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("a gated path asks logged-in visitors for the password, then opens the package", async ({
  page,
  request,
  browserErrors,
}) => {
  browserErrors.expect(failedRequest(403, "/trpc/gated.unlock")); // the wrong password
  const user = await newConfirmedUser(request, "e2e-gated");
  await loginAs(page, user);
  await page.goto(E2E_GATED.couple.path);
  const password = page.getByLabel("Passwort");
  await password.fill(E2E_GATED.couple.password.toLowerCase());
  await page.getByRole("button", { name: "Freischalten" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Falsches Passwort");
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();

  await password.fill(E2E_GATED.couple.password);
  await password.press("Enter");
  await expect(page).toHaveURL(/\/congress-package\/1$/);
  await expect(page.getByRole("heading", { name: "Tag 3" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Video abspielen/ })).toHaveCount(23);

  // unlocked for this account: the path now leads straight to the package
  await page.goto(E2E_GATED.couple.path);
  await expect(page).toHaveURL(/\/congress-package\/1$/);
});

test("the death-congress path works the same way, and an unknown path is still a 404", async ({
  page,
  browserErrors,
}) => {
  browserErrors.expect(failedRequest(404, "/trpc/gated.resolve")); // the unknown path
  await loginAsParticipant(page);
  await page.goto(E2E_GATED.death.path);
  await page.getByLabel("Passwort").fill(E2E_GATED.death.password);
  await page.getByRole("button", { name: "Freischalten" }).click();
  await expect(page).toHaveURL(/\/congress-package\/3$/);
  await expect(page.getByRole("button", { name: /^Video abspielen/ })).toHaveCount(6);

  await page.goto("/e2e-tod-und-sterben-falsch");
  await expect(page.getByRole("heading", { name: "Seite nicht gefunden" })).toBeVisible();
});

test("the visitor pages have no accessibility violations (WCAG 2.1 AA)", async ({ page }) => {
  await loginAsParticipant(page);
  for (const path of ["/", "/congress/4", "/congress-package/2", "/participation/5", E2E_GATED.couple.path]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  }
});
