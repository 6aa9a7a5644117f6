import { expect } from "@playwright/test";
import { adminSectionLink } from "./admin-nav";
import { simulatorOrigin } from "./constants";
import { confirmDialog, DEMO, dayFromToday, expectAccessible, test } from "./fixtures";

test("an admin follows an order to its payment notifications, filters them and reads the raw data", async ({
  page,
  browser,
  data,
  signIn,
}) => {
  // two browsers, two sign-ins and a checkout round trip: over a minute on two busy cores now and then
  test.slow();
  // a purchase through the checkout simulator, which sends a signed on_payment to our endpoint
  const buyer = await data.user();
  const congress = await data.ticketedCongress({ lastDay: null });
  await signIn(buyer);
  await page.goto(`/congress-ticket-purchase/${congress.id}`);
  await expect(
    page.getByRole("heading", { name: `Testkasse: Produkt ${congress.digistoreIdTicket}` }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Bezahlen" }).click();
  await confirmDialog(page, "Vielen Dank für Ihren Kauf!");

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(DEMO.admin, admin);
  await admin.goto("/admin/manage/ticket-orders");
  await admin.getByLabel("Nach E-Mail oder Bestellnummer suchen").fill(buyer.email);
  const orders = admin.getByRole("table", { name: "Ticketbestellungen" });
  const orderLink = orders.getByRole("link", { name: /^Zahlungsmeldungen zur Bestellung / });
  await expect(orderLink).toHaveCount(1);
  const orderNumber = (await orderLink.textContent())?.trim() ?? "";
  expect(orderNumber).not.toBe("");
  await orderLink.click();

  await expect(admin).toHaveURL(/\/admin\/manage\/payment-notifications\?/);
  await expect(adminSectionLink(admin, "Zahlungsmeldungen")).toHaveAttribute("aria-current", "page");
  await expect(admin.getByLabel("Bestellnummer")).toHaveValue(orderNumber);
  const table = admin.getByRole("table", { name: "Zahlungsmeldungen" });
  const row = table.getByRole("row").filter({ hasText: "on_payment" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(orderNumber);
  await expect(row).toContainText("verarbeitet");
  await expect(row).toContainText(buyer.email);
  await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4}/);

  // the raw data, opened with the keyboard; Escape closes it and gives the focus back
  const open = row.getByRole("button", { name: /^Rohdaten anzeigen/ });
  await open.focus();
  await admin.keyboard.press("Enter");
  const dialog = admin.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: /^Rohdaten: on_payment/ })).toBeVisible();
  const fields = dialog.getByRole("definition");
  await expect(dialog.getByRole("term").filter({ hasText: /^order_id$/ })).toBeVisible();
  await expect(fields.filter({ hasText: new RegExp(`^${orderNumber}$`) }).first()).toBeVisible();
  await expectAccessible(admin, "Rohdaten einer Zahlungsmeldung");
  await admin.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();

  // the outcome filter narrows on the server: this order had no conflict
  await admin.getByLabel("Ergebnis").selectOption({ label: "Konflikt: anderes Konto" });
  await expect(table.getByText("Keine Zahlungsmeldungen gefunden.")).toBeVisible();
  await admin.getByLabel("Ergebnis").selectOption({ label: "verarbeitet" });
  await expect(row).toHaveCount(1);
  await adminContext.close();
});

test("a refund from the checkout shows in the order table as why the order ended", async ({
  page,
  browser,
  data,
  signIn,
}) => {
  const buyer = await data.user();
  const pkg = await data.package((await data.congress({ firstDay: dayFromToday(-30) })).id);
  await signIn(buyer);
  await page.goto(`/congress-package-purchase/${pkg.id}`);
  await expect(page.getByRole("heading", { name: `Testkasse: Produkt ${pkg.externalId}` })).toBeVisible();
  await page.getByRole("button", { name: "Bezahlen" }).click();
  await confirmDialog(page, "Vielen Dank für Ihren Kauf!");
  // the provider refunds: a transaction of its own on the same order_id
  await page.goto(`${simulatorOrigin()}/`);
  const simulated = page.getByRole("row", { name: new RegExp(buyer.email.replace(/[.+]/g, "\\$&")) });
  await simulated.getByRole("button", { name: "Erstatten" }).click();
  await expect(simulated).toContainText("erstattet");

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(DEMO.admin, admin);
  await admin.goto("/admin/manage/package-orders");
  await admin.getByLabel("Nach E-Mail oder Bestellnummer suchen").fill(buyer.email);
  const orders = admin.getByRole("table", { name: "Paketbestellungen" });
  const order = orders.getByRole("row").filter({ hasText: buyer.email });
  await expect(order).toContainText("storniert: Erstattung");
  await order.getByRole("link", { name: /^Zahlungsmeldungen zur Bestellung / }).click();
  const table = admin.getByRole("table", { name: "Zahlungsmeldungen" });
  await expect(table.getByRole("row").filter({ hasText: "on_refund" })).toContainText("verarbeitet");
  await adminContext.close();
});
