import { expect, type Page } from "@playwright/test";
import { simulatorOrigin } from "./constants";
import { confirmDialog, contentDay, dayFromToday, openOverview, test, waitForMail } from "./fixtures";

/** Pays on the checkout simulator, which sends a signed IPN to our endpoint and returns to the overview. */
async function payOnSimulator(page: Page, productId: number) {
  await expect(page.getByRole("heading", { name: `Testkasse: Produkt ${productId}` })).toBeVisible();
  await page.getByRole("button", { name: "Bezahlen" }).click();
  // the overview thanks once it has asked whether the payment arrived (ADR 0085): one request more
  await expect(page.getByRole("heading", { name: "Vielen Dank für Ihren Kauf!" })).toBeVisible({
    timeout: 20_000,
  });
  await confirmDialog(page, "Vielen Dank für Ihren Kauf!");
  await expect(page).toHaveURL(/\/$/);
}

test("a ticket for a running event bought through the checkout opens its videos", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  // the running event as another participant has it, with videos and tickets
  const congress = await data.runningCongress((await data.user()).id);
  await signIn(user);
  await openOverview(page);
  const card = page.getByRole("article", { name: congress.title });
  await card.getByRole("link", { name: "Teilnehmen" }).click();
  await expect(page.getByRole("heading", { name: "Ticket erforderlich" })).toBeVisible();
  await page.getByRole("link", { name: "Ticket kaufen" }).click();
  await payOnSimulator(page, congress.digistoreIdTicket);

  await card.getByRole("link", { name: "Zu den Videos" }).click();
  await expect(page.getByRole("heading", { name: "Tag 1: Bindung" })).toBeVisible();
  const mail = await waitForMail(user.email, `Ihr Ticket: ${congress.title}`);
  expect(mail.html).toContain("Erika Muster");
});

test("a ticket for a future event shows the ticket-bought label instead of the cancel button", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.ticketedCongress();
  await signIn(user);
  await page.goto(`/congress-ticket-purchase/${congress.id}`);
  await payOnSimulator(page, congress.digistoreIdTicket);
  const card = page.getByRole("article", { name: congress.title });
  await expect(card.getByText("Ticket gekauft")).toBeVisible();
  await expect(card.getByRole("button", { name: "Teilnahme stornieren" })).toHaveCount(0);
});

test("a bought package opens, and a refund from the checkout removes access again", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.congress({ firstDay: dayFromToday(-30), lastDay: dayFromToday(-28) });
  await data.content(congress.id, [contentDay("Tag 1", 2)]);
  const pkg = await data.package(congress.id);
  await signIn(user);
  await openOverview(page);
  const card = page.getByRole("region", { name: "Kongresspakete" }).getByRole("article", { name: pkg.name });
  await card.getByRole("link", { name: "Jetzt kaufen" }).click();
  await payOnSimulator(page, pkg.externalId);
  await expect(card.getByText("Status: bezahlt")).toBeVisible();
  await card.getByRole("link", { name: "Kongresspaket öffnen" }).click();
  await expect(page.getByRole("button", { name: /^Video abspielen/ }).first()).toBeVisible();

  // the provider refunds: its IPN on_refund withdraws the package
  await page.goto(`${simulatorOrigin()}/`);
  await page
    .getByRole("row", { name: new RegExp(user.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", {
      name: "Erstatten",
    })
    .click();
  await expect(
    page.getByRole("row", { name: new RegExp(user.email.replace(/[.+]/g, "\\$&")) }),
  ).toContainText("erstattet");
  await page.goto(`/congress-package/${pkg.id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Kongresspaket nicht erworben" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Video abspielen/ })).toHaveCount(0);
  await page.goto("/");
  await expect(card.getByText("Status: storniert")).toBeVisible();
});
