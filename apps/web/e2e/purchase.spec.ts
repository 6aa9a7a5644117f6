import type { Db } from "@app/db";
import { expect, type Page } from "@playwright/test";
import { dayFromToday, failedRequest, hoverThenClickOnSlowLine, openOverview, test } from "./fixtures";
import { sendPayment } from "./payments";

const packagesRegion = (page: Page) => page.getByRole("region", { name: "Kongresspakete" });
const thanks = (page: Page) => page.getByRole("heading", { name: "Vielen Dank für Ihren Kauf!" });

/** The account's id at the checkout (the `uid` of `custom`). */
async function digistoreHash(testDb: Db, userId: number): Promise<string> {
  const { rows } = await testDb.$client.query<{ hash: string }>(
    "SELECT digistore_hash AS hash FROM users WHERE id = $1",
    [userId],
  );
  return rows[0]?.hash ?? "";
}

const successDialog = (page: Page) => page.getByRole("dialog").or(page.getByRole("alertdialog"));

test("a return from the checkout with an unknown product thanks nobody", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(404, "/trpc/checkout.getReturnState"));
  await signIn(await data.user());
  await page.goto("/?custom=pid-999999|cat-ticpac");
  await expect(page.getByRole("status").filter({ hasText: "Kein Kauf gefunden" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(thanks(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Hinweis schließen" }).click();
  await expect(page.getByText("Kein Kauf gefunden")).toHaveCount(0);
});

test("a return before the payment notification says it is processed, and thanks once it arrives", async ({
  page,
  data,
  request,
  testDb,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.congress({ visible: false, firstDay: dayFromToday(-60) });
  const pkg = await data.package(congress.id);
  await signIn(user);
  await page.goto(`/?custom=pid-${pkg.id}|cat-pac`);
  const processing = page.getByRole("status").filter({ hasText: "Ihre Zahlung wird bearbeitet" });
  await expect(processing).toBeVisible();
  await expect(processing).toContainText(`„${pkg.name}“`);
  await expect(thanks(page)).toHaveCount(0);

  await sendPayment(request, {
    digistoreHash: await digistoreHash(testDb, user.id),
    category: "pac",
    id: pkg.id,
    productId: pkg.externalId,
  });
  const dialog = successDialog(page);
  await expect(thanks(page)).toBeVisible();
  await expect(dialog).toContainText(`Das Kongresspaket „${pkg.name}“ ist freigeschaltet`);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(processing).toHaveCount(0);
  const card = packagesRegion(page).getByRole("article", { name: pkg.name });
  await expect(card.getByText("Status: bezahlt")).toBeVisible();
  await expect(card.getByRole("link", { name: "Kongresspaket öffnen" })).toBeVisible();
});

test("a ticket-and-package return thanks only for the ticket when its payment unlocked no package", async ({
  page,
  data,
  request,
  testDb,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.ticketedCongress();
  await sendPayment(request, {
    digistoreHash: await digistoreHash(testDb, user.id),
    category: "ticpac",
    id: congress.id,
    productId: congress.digistoreIdTicketAndPackage,
  });
  // made after the payment: not part of it, so still for sale
  const pkg = await data.package(congress.id);
  await signIn(user);
  await page.goto(`/?custom=pid-${congress.id}|cat-ticpac`);
  await expect(thanks(page)).toBeVisible();
  const dialog = successDialog(page);
  await expect(dialog).toContainText(`Sie sind für „${congress.title}“ angemeldet`);
  await expect(dialog).not.toContainText("Kongresspaket ist freigeschaltet");
  await expect(dialog).toContainText("Ein Kongresspaket wurde mit dieser Zahlung nicht freigeschaltet.");
  await dialog.getByRole("button", { name: "OK" }).click();
  const card = packagesRegion(page).getByRole("article", { name: pkg.name });
  await expect(card.getByRole("link", { name: "Jetzt kaufen" })).toBeVisible();
});

test("a ticket bought before is no thanks for ticket and package: that waits for its own payment", async ({
  page,
  data,
  request,
  testDb,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.ticketedCongress();
  const pkg = await data.package(congress.id);
  await data.participation(user.id, congress.id);
  await data.ticketOrder(user.id, congress.id, "paid");
  await signIn(user);
  await page.goto(`/?custom=pid-${congress.id}|cat-ticpac`);
  const processing = page.getByRole("status").filter({ hasText: "Ihre Zahlung wird bearbeitet" });
  // the product's name is there: the server has answered, and nothing of this purchase is paid
  await expect(processing).toContainText(`„${congress.title}“`);
  await expect(thanks(page)).toHaveCount(0);

  await sendPayment(request, {
    digistoreHash: await digistoreHash(testDb, user.id),
    category: "ticpac",
    id: congress.id,
    productId: congress.digistoreIdTicketAndPackage,
  });
  await expect(thanks(page)).toBeVisible();
  await expect(successDialog(page)).toContainText(
    `Sie sind für „${congress.title}“ angemeldet, und das Kongresspaket ist freigeschaltet.`,
  );
  await successDialog(page).getByRole("button", { name: "OK" }).click();
  const card = packagesRegion(page).getByRole("article", { name: pkg.name });
  await expect(card.getByRole("link", { name: "Kongresspaket öffnen" })).toBeVisible();
});

test("while the answer is slow the notice names no product, and no placeholder in quotes", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.ticketedCongress();
  let release = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.includes("checkout.getReturnState"),
    async (route) => {
      await answered;
      await route.continue();
    },
  );
  await signIn(await data.user());
  await page.goto(`/?custom=pid-${congress.id}|cat-tic`);
  const processing = page.getByRole("status").filter({ hasText: "Ihre Zahlung wird bearbeitet" });
  await expect(processing).toContainText("Wir warten noch auf die Bestätigung Ihrer Zahlung.");
  await expect(processing).not.toContainText("„");
  release();
  await expect(processing).toContainText(
    `Wir warten noch auf die Zahlungsbestätigung für „${congress.title}“.`,
  );
});

test("without a payment notification the return says what to do", async ({ page, data, signIn }) => {
  const congress = await data.ticketedCongress();
  await page.clock.install();
  await signIn(await data.user());
  await page.goto(`/?custom=pid-${congress.id}|cat-tic`);
  await expect(page.getByRole("status").filter({ hasText: "Ihre Zahlung wird bearbeitet" })).toBeVisible();
  await page.clock.runFor(31_000);
  const delayed = page
    .getByRole("status")
    .filter({ hasText: "Die Zahlungsbestätigung ist noch nicht eingetroffen" });
  await expect(delayed).toBeVisible();
  await expect(delayed).toContainText("support@example.com");
  await expect(delayed.getByRole("button", { name: "Erneut prüfen" })).toBeVisible();
  await expect(thanks(page)).toHaveCount(0);
});

test("Back from the checkout returns to the overview, not to the purchase screen", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.congress({ firstDay: dayFromToday(21) });
  const pkg = await data.package(congress.id);
  await signIn(await data.user());
  await openOverview(page);
  await packagesRegion(page)
    .getByRole("article", { name: pkg.name })
    .getByRole("link", { name: "Jetzt kaufen" })
    .click();
  await expect(page.getByRole("heading", { name: `Testkasse: Produkt ${pkg.externalId}` })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
});

test("a purchase link hovered on a slow line still leads to the checkout when clicked", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.congress({ firstDay: dayFromToday(21) });
  const pkg = await data.package(congress.id);
  await signIn(await data.user());
  await openOverview(page);
  await hoverThenClickOnSlowLine(
    page,
    packagesRegion(page).getByRole("article", { name: pkg.name }).getByRole("link", { name: "Jetzt kaufen" }),
  );
  await expect(page.getByRole("heading", { name: `Testkasse: Produkt ${pkg.externalId}` })).toBeVisible();
});

test("a bought package is not sold again: the purchase screen links to it", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(409, "/trpc/checkout.getUrl"));
  const user = await data.user();
  const congress = await data.congress({ visible: false, firstDay: dayFromToday(-60) });
  const pkg = await data.package(congress.id);
  await data.packageOrder(user.id, pkg.id, "paid");
  await signIn(user);
  await page.goto(`/congress-package-purchase/${pkg.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Bereits gekauft" })).toBeVisible();
  await expect(page.getByText(`Sie haben das Kongresspaket „${pkg.name}“ bereits gekauft.`)).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Zur Übersicht" })).toBeVisible();
  await page.getByRole("link", { name: "Zum Kongresspaket" }).click();
  await expect(page).toHaveURL(new RegExp(`/congress-package/${pkg.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: pkg.name })).toBeVisible();
});

test("ticket and package with the ticket paid offer the package alone", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(409, "/trpc/checkout.getUrl"));
  const user = await data.user();
  const congress = await data.ticketedCongress();
  const pkg = await data.package(congress.id);
  await data.participation(user.id, congress.id);
  await data.ticketOrder(user.id, congress.id, "paid");
  await signIn(user);
  await page.goto(`/congress-ticket-package-purchase/${congress.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Bereits gekauft" })).toBeVisible();
  await expect(page.getByText("Das Kongresspaket können Sie einzeln dazukaufen.")).toBeVisible();
  await page.getByRole("link", { name: `„${pkg.name}“ kaufen` }).click();
  await expect(page.getByRole("heading", { name: `Testkasse: Produkt ${pkg.externalId}` })).toBeVisible();
});

test("the ticket of an event without a package, bought: ticket and package says what is owned and that no package exists", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(409, "/trpc/checkout.getUrl"));
  const user = await data.user();
  const congress = await data.ticketedCongress();
  await data.participation(user.id, congress.id);
  await data.ticketOrder(user.id, congress.id, "paid");
  await signIn(user);
  await page.goto(`/congress-ticket-package-purchase/${congress.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Bereits gekauft" })).toBeVisible();
  await expect(
    page.getByText(
      `Ihr Ticket für „${congress.title}“ haben Sie bereits gekauft. Ein Kongresspaket gibt es zu dieser Veranstaltung nicht.`,
    ),
  ).toBeVisible();
  await expect(page.getByText("Sie haben Ticket und Kongresspaket")).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "Zur Übersicht" })).toBeVisible();
});

test("a package available later says from when, next to its purchase button", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.congress({ firstDay: dayFromToday(21) });
  const later = await data.package(congress.id, { availabilityDate: dayFromToday(30) });
  await signIn(await data.user());
  await openOverview(page);
  const card = packagesRegion(page).getByRole("article", { name: later.name });
  const [y, m, d] = dayFromToday(30).split("-");
  await expect(card.getByText(`Verfügbar ab ${d}.${m}.${y}`)).toBeVisible();
  await expect(card.getByRole("link", { name: "Jetzt kaufen" })).toBeVisible();
});
