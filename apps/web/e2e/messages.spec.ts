import { expect, type Page } from "@playwright/test";
import { dayFromToday, openOverview, test } from "./fixtures";

// Spec section 9: "Success, error and notice messages and alerts display for 5000 ms". They pause while the
// pointer or the keyboard focus is inside (WCAG 2.2.1); questions wait for an answer (ADR 0086).

/** The migration form with two different passwords: its error dialog opens without a request. */
async function openMismatchDialog(page: Page) {
  await page.clock.install();
  await page.goto("/migration/set-password/1/e2e-hash");
  await page.getByLabel("Passwort", { exact: true }).fill("migriert-Passwort-1");
  await page.getByLabel("Passwort bestätigen").fill("anders-Passwort-1");
  const save = page.getByRole("button", { name: "Passwort speichern" });
  const dialog = page.getByRole("alertdialog");
  // once in real time: the dialog's code loads with the first dialog, and React reveals it on a timer
  await save.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toHaveCount(0);

  // from here on time passes only when the test says so
  await page.clock.pauseAt(Date.now() + 60_000);
  await save.click();
  await expect(dialog).toContainText("Die Inhalte der beiden Passwort-Felder müssen übereinstimmen!");
  // the pointer away from the dialog (the click left it where the dialog opened)
  await page.mouse.move(2, 2);
  return dialog;
}

test("an error dialog closes after 5000 ms, not before", async ({ page }) => {
  const dialog = await openMismatchDialog(page);
  await page.clock.runFor(4_999);
  await expect(dialog).toBeVisible();
  await page.clock.runFor(1);
  await expect(dialog).toHaveCount(0);
});

test("an error dialog stays while the pointer is on it and closes 5000 ms after it left", async ({
  page,
}) => {
  const dialog = await openMismatchDialog(page);
  await page.clock.runFor(2_000);
  await dialog.hover();
  await page.clock.runFor(20_000);
  await expect(dialog).toBeVisible();
  await page.mouse.move(2, 2);
  await page.clock.runFor(2_999);
  await expect(dialog).toBeVisible();
  await page.clock.runFor(1);
  await expect(dialog).toHaveCount(0);
});

test("an error dialog stays while the keyboard focus is on its buttons", async ({ page }) => {
  const dialog = await openMismatchDialog(page);
  await page.keyboard.press("Tab");
  expect(
    await dialog.evaluate((d) => d !== document.activeElement && d.contains(document.activeElement)),
  ).toBe(true);
  await page.clock.runFor(20_000);
  await expect(dialog).toBeVisible();
  // the focus stays inside until the visitor closes it
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("a question waits for the answer; the alert after it closes after 5000 ms unless hovered", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.congress({ firstDay: dayFromToday(21), lastDay: dayFromToday(23) });
  await data.participation(user.id, congress.id);
  await page.clock.install();
  await signIn(user);
  await openOverview(page);
  const cancel = page.getByRole("article", { name: congress.title }).getByRole("button", {
    name: "Teilnahme stornieren",
  });
  await cancel.click();
  const question = page.getByRole("alertdialog");
  await expect(question).toBeVisible();
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.mouse.move(2, 2);
  await page.clock.runFor(60_000);
  await expect(question).toBeVisible();
  // the answer goes out in real time (the API client batches its calls on a timer)
  await page.clock.resume();
  await question.getByRole("button", { name: "Teilnahme stornieren" }).click();
  const alert = page.getByRole("status").filter({ hasText: "Ihre Teilnahme wurde storniert" });
  await alert.hover();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.clock.runFor(20_000);
  await expect(alert).toBeVisible();
  await page.mouse.move(2, 2);
  await page.clock.runFor(5_000);
  await expect(alert).toHaveCount(0);
});
