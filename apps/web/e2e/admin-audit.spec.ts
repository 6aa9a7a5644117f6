import { expect, type Page } from "@playwright/test";
import { openAdminSection } from "./admin-nav";
import { DEMO, expectAccessible, newConfirmedUser, openOverview, test } from "./fixtures";

/** The day button of the date picker for a day of the month shown. */
const day = (page: Page, n: number) =>
  page.getByRole("dialog").getByRole("button", { name: new RegExp(`\\b${n}\\. `) });

test("an admin changes an event and reads the change in the Protokoll", async ({ page, data, signIn }) => {
  const title = data.title("E2E-Protokoll");
  data.removeCongressesAfterwards(title);
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, "Veranstaltungen");
  await page.getByRole("button", { name: "Neue Veranstaltung" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Titel *").fill(title);
  await dialog.getByLabel("Beschreibung *").fill("Aus dem Protokoll-Test.");
  await dialog.getByRole("button", { name: /nächsten Monat/i }).click();
  await day(page, 10).click();
  await day(page, 11).click();
  await dialog.getByRole("button", { name: "Speichern" }).click();
  const congresses = page.getByRole("table", { name: "Veranstaltungen" });
  await expect(congresses.getByText(title)).toBeVisible();

  await page.getByRole("button", { name: `${title} bearbeiten` }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Titel *").fill(`${title} (geändert)`);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(congresses.getByText(`${title} (geändert)`)).toBeVisible();

  await openAdminSection(page, "Protokoll");
  const log = page.getByRole("region", { name: "Protokoll" });
  await log.getByLabel("Bereich").selectOption({ label: "Veranstaltung" });
  await log.getByLabel("Aktion").selectOption({ label: "Veranstaltung geändert" });
  await log.getByLabel("Ausgeführt von").selectOption({ label: "Anna Admin" });
  const entry = log
    .getByRole("table", { name: "Protokoll" })
    .getByRole("row")
    .filter({ hasText: `Titel: ${title} → ${title} (geändert)` });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Anna Admin");
  await expect(entry).toContainText("Veranstaltung geändert");
  // the time in German form, Berlin time
  await expect(entry).toContainText(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr/);
  await expectAccessible(page, "Protokoll");

  // clean up: the deletion is recorded too
  await openAdminSection(page, "Veranstaltungen");
  await page.getByRole("button", { name: `${title} (geändert) löschen` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Ja, ich bin mir sicher" }).click();
  await expect(congresses.getByText(`${title} (geändert)`)).toHaveCount(0);
  await openAdminSection(page, "Protokoll");
  await log.getByLabel("Aktion").selectOption({ label: "Veranstaltung gelöscht" });
  await expect(log.getByRole("row").filter({ hasText: `Titel: ${title} (geändert) → –` })).toHaveCount(1);
});

test("the outbox lists a mail with the recipient masked except for the domain", async ({
  page,
  request,
  data,
  signIn,
}) => {
  const { email } = await newConfirmedUser(request, data, "e2e.outbox");
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, "E-Mail-Versand");
  const outbox = page.getByRole("region", { name: "E-Mail-Versand" });
  await outbox
    .getByLabel("E-Mail-Art")
    .selectOption({ label: "Nach der Registrierung: Link zur Bestätigung der E-Mail-Adresse." });
  await outbox.getByLabel("Status").selectOption({ label: "versendet" });
  const table = outbox.getByRole("table", { name: "E-Mail-Versand" });
  const first = table.getByRole("row").nth(1);
  await expect(first).toContainText("***@example.com");
  await expect(first).toContainText("versendet");
  await expect(first).toContainText("registration-confirmation");
  await expect(page.getByText(email)).toHaveCount(0);
  await expect(table).not.toContainText(email.split("@")[0] ?? email);
  await expectAccessible(page, "E-Mail-Versand");
});
