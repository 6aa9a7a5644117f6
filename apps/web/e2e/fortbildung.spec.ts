import { readFile } from "node:fs/promises";
import { MSG_EFN, MSG_VNR } from "@app/shared";
import { expect, type Page } from "@playwright/test";
import { vimeo } from "./data";
import { contentDay, dayFromToday, expectAccessible, test } from "./fixtures";

/**
 * ADR 0105: the participant's line per day and the organiser's section "Fortbildung"; ADR 0114, ADR 0127:
 * the EFN asked on the event page and kept in the profile, and the chamber's report.
 */

const VNR = "2760602026000000099";

/**
 * A Fortbildung event of one day (today: running) with two 90-minute videos; the participant watched 37
 * minutes.
 */
async function fortbildungEvent(data: import("./data").TestData, today = dayFromToday(0)) {
  const congress = await data.congress({
    fortbildung: true,
    vnr: VNR,
    firstDay: today,
    lastDay: today,
  });
  await data.content(congress.id, [contentDay("Tag 1", 2)]);
  await data.videoLength(vimeo(100_000), 90 * 60);
  await data.videoLength(vimeo(100_001), 90 * 60);
  const user = await data.user({ firstname: "Fenja", lastname: "Fortbildung" });
  await data.participation(user.id, congress.id);
  await data.watched(user.id, congress.id, today, vimeo(100_000), 37 * 60);
  return { congress, user, today };
}

const fortbildung = (page: Page) => page.getByRole("region", { name: /^Fortbildung/ });
const efnPrompt = (page: Page) => page.getByRole("region", { name: "Ihre EFN für die Kammer" });
const EFN_FIELD = "Einheitliche Fortbildungsnummer (EFN)";

test("the participant sees per day how many minutes count and from when the certificate comes", async ({
  page,
  data,
  signIn,
}) => {
  const { congress, user, today } = await fortbildungEvent(data);
  const pkg = await data.package(congress.id);
  await data.packageOrder(user.id, pkg.id);
  await signIn(user);
  await page.goto(`/congress/${congress.id}`);
  await expect(fortbildung(page)).toContainText("37 von 180 Minuten · Bescheinigung ab 144 Minuten");
  await expect(fortbildung(page)).toContainText(`VNR ${VNR}`);
  await expect(page.getByRole("link", { name: "Mehr dazu in der Datenschutzerklärung" })).toBeVisible();

  await data.watched(user.id, congress.id, today, vimeo(100_001), 110 * 60);
  await page.reload();
  await expect(fortbildung(page)).toContainText("147 von 180 Minuten · Voraussetzung erfüllt");
  // the package page shows the same days
  await page.goto(`/congress-package/${pkg.id}`);
  await expect(fortbildung(page)).toContainText("147 von 180 Minuten · Voraussetzung erfüllt");
});

test("an event without Fortbildung shows no line and no notice", async ({ page, data, signIn }) => {
  const user = await data.user();
  const congress = await data.congress({ firstDay: dayFromToday(0) });
  await data.content(congress.id, [contentDay("Tag 1", 1)]);
  await data.participation(user.id, congress.id);
  await signIn(user);
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Tag 1" })).toBeVisible();
  await expect(fortbildung(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Mehr dazu in der Datenschutzerklärung" })).toHaveCount(0);
  await expect(efnPrompt(page)).toHaveCount(0);
});

test("the organiser lists a day's participants, filters by outcome and exports the list", async ({
  page,
  data,
  signIn,
}) => {
  const { congress, user } = await fortbildungEvent(data);
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await page.goto(`/admin/manage/fortbildung?congress=${congress.id}`);
  const table = page.getByRole("table", { name: "Fortbildung" });
  const row = table.getByRole("row").filter({ hasText: user.email });
  await expect(row).toContainText("Fenja Fortbildung");
  await expect(row).toContainText("37 von 180");
  await expect(row).toContainText("Player");
  await expect(row).toContainText("Nein");
  await expect(page.getByRole("status").filter({ hasText: "Teilnehmenden haben" })).toContainText(
    "0 von 1 Teilnehmenden haben die Voraussetzung erreicht.",
  );

  await page.getByLabel("Voraussetzung").selectOption("erreicht");
  await expect(page).toHaveURL(/reached=erreicht/);
  await expect(table).toContainText("Keine Teilnahmen gefunden.");
  await page.getByLabel("Voraussetzung").selectOption("nicht-erreicht");
  await expect(row).toBeVisible();

  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: `Fortbildung von ${congress.title} als CSV herunterladen` }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^fortbildung-.+\.csv$/);
  const csv = await readFile(await file.path(), "utf8");
  expect(csv).toContain(`;Fenja Fortbildung;${user.email};37;144;180;0;0;Player;nein;0;${VNR}`);

  // the chamber's report lists certificates, which come after the last day: until then the reason, no button
  const tomorrow = dayFromToday(1).split("-").reverse().join(".");
  await expect(page.locator('[data-slot="chamber-report"]')).toContainText(
    `Die Meldung an die Kammer entsteht aus den Teilnahmebescheinigungen. Sie werden nach dem letzten Tag der Veranstaltung ausgestellt, ab dem ${tomorrow}.`,
  );
  await expect(page.getByRole("button", { name: /^Meldung an die Kammer/ })).toHaveCount(0);
});

test("the event page asks a participant without EFN for it; the profile changes and removes it", async ({
  page,
  data,
  signIn,
}) => {
  const { congress, user } = await fortbildungEvent(data);
  await signIn(user);
  await page.goto(`/congress/${congress.id}`);
  const prompt = efnPrompt(page);
  await expect(prompt).toContainText("für die Meldung Ihrer Punkte an die Kammer");
  // not a dialog: the page stays usable around it
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(fortbildung(page)).toContainText("37 von 180 Minuten");

  // by keyboard: a wrong check digit is refused at the field, the right number saved with Enter
  const field = prompt.getByLabel(EFN_FIELD);
  await field.focus();
  await page.keyboard.type("80 276 090 123456 7");
  await page.keyboard.press("Enter");
  await expect(prompt.getByRole("alert")).toHaveText(MSG_EFN.checkDigit);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await expectAccessible(page, "EFN-Abfrage mit Fehler");
  await field.fill("80-276-090-123456-6");
  await page.keyboard.press("Enter");
  const thanks = page.getByRole("status").filter({ hasText: "Danke! Ihre EFN ist gespeichert." });
  await expect(thanks).toBeFocused();
  await expect(prompt).toHaveCount(0);
  await page.reload();
  await expect(fortbildung(page)).toBeVisible();
  await expect(efnPrompt(page)).toHaveCount(0);

  // the profile (on a phone's width) shows it in its groups; a wrong length is refused there too; empty
  // removes it
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/profile");
  const card = page.getByRole("region", { name: "Fortbildungspunkte" });
  const profileField = card.getByLabel(EFN_FIELD);
  await expect(profileField).toHaveValue("80 276 090 123456 6");
  await profileField.fill("80 276 090 12345 6");
  await card.getByRole("button", { name: "EFN speichern" }).click();
  await expect(card.getByRole("alert")).toHaveText(MSG_EFN.length(14));
  await expectAccessible(page, "Profil mit EFN-Fehler");
  await profileField.fill("");
  await card.getByRole("button", { name: "EFN speichern" }).click();
  await expect(page.getByText(MSG_EFN.cleared)).toBeVisible();
  await page.goto(`/congress/${congress.id}`);
  await expect(efnPrompt(page)).toBeVisible();
});

test("the organiser downloads the chamber's report of a day from its certificates: with EFN, without EFN, and as Excel", async ({
  page,
  data,
  signIn,
}) => {
  // yesterday's event: its certificates are due, issued by the report if the hourly job has not yet
  await data.certificateIssuer();
  const { congress, today } = await fortbildungEvent(data, dayFromToday(-1));
  // reached with an EFN (check digit worked out in packages/shared/src/efn.test.ts), reached without one
  const withEfn = await data.user({ firstname: "Ekin", lastname: "Efn", efn: "802760901234566" });
  const withoutEfn = await data.user({ firstname: "Olga", lastname: "Ohne" });
  for (const user of [withEfn, withoutEfn]) {
    await data.participation(user.id, congress.id);
    await data.watched(user.id, congress.id, today, vimeo(100_000), 90 * 60);
    await data.watched(user.id, congress.id, today, vimeo(100_001), 60 * 60);
  }
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await page.goto(`/admin/manage/fortbildung?congress=${congress.id}`);
  await expect(page.getByRole("status").filter({ hasText: "Teilnehmenden haben" })).toContainText(
    "2 von 3 Teilnehmenden haben die Voraussetzung erreicht.",
  );
  const date = today.split("-").reverse().join(".");

  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: `Meldung an die Kammer vom ${date} als CSV herunterladen` }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(new RegExp(`^kammermeldung-.+-${today}\\.csv$`));
  expect(await readFile(await csv.path(), "utf8")).toBe(
    `\uFEFFVNR;EFN;Nachname;Vorname;Datum;Punkte\r\n${VNR};802760901234566;Efn;Ekin;${date};4\r\n`,
  );

  const [without] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: `Teilnehmende ohne EFN vom ${date} als CSV herunterladen` }).click(),
  ]);
  expect(without.suggestedFilename()).toMatch(/^ohne-efn-.+\.csv$/);
  expect(await readFile(await without.path(), "utf8")).toBe(
    `\uFEFFVNR;Nachname;Vorname;E-Mail;Datum;Punkte\r\n${VNR};Ohne;Olga;${withoutEfn.email};${date};4\r\n`,
  );

  const [xlsx] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: `Meldung an die Kammer vom ${date} als Excel herunterladen` }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^kammermeldung-.+\.xlsx$/);
  // an XLSX file is a zip archive
  expect((await readFile(await xlsx.path())).subarray(0, 2).toString()).toBe("PK");
});

test("an event's VNR stored before it was checked is refused at its field on the next save, also with Fortbildung off; pasted with spaces it is kept as its digits", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.congress({ vnr: "VNR-1" });
  await signIn(await data.user({ admin: true }));
  await page.goto("/admin/manage/events");
  await page.getByRole("button", { name: `${congress.title} bearbeiten` }).click();
  const dialog = page.getByRole("dialog", { name: "Veranstaltung bearbeiten" });
  const field = dialog.getByLabel("Veranstaltungsnummer (VNR)");
  await expect(field).toHaveCount(0);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert")).toHaveText(MSG_VNR.length(1));
  await field.fill("276 0602 0260 0000 0099");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Die Veranstaltung wurde gespeichert.")).toBeVisible();
  await page.getByRole("button", { name: `${congress.title} bearbeiten` }).click();
  await dialog.getByRole("checkbox", { name: "Fortbildungspunkte vergeben" }).check();
  await expect(field).toHaveValue(VNR);
});
