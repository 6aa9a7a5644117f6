import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import { vimeo } from "./data";
import { contentDay, dayFromToday, login, type TestUser, test } from "./fixtures";

/** Issue 33 items 5 and 6: the participant's line per day and the organiser's section "Fortbildung". */

async function loginAs(page: Page, user: TestUser) {
  await page.goto("/login");
  await login(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

/** A Fortbildung event running today with two 90-minute videos; the participant watched 37 minutes. */
async function fortbildungEvent(data: import("./data").TestData) {
  const today = dayFromToday(0);
  const congress = await data.congress({
    fortbildung: true,
    vnr: "2760602026000099",
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

test("the participant sees per day how many minutes count and from when the certificate comes", async ({
  page,
  data,
}) => {
  const { congress, user, today } = await fortbildungEvent(data);
  const pkg = await data.package(congress.id);
  await data.packageOrder(user.id, pkg.id);
  await loginAs(page, user);
  await page.goto(`/congress/${congress.id}`);
  await expect(fortbildung(page)).toContainText("37 von 180 Minuten · Bescheinigung ab 144 Minuten");
  await expect(fortbildung(page)).toContainText("VNR 2760602026000099");
  await expect(page.getByRole("link", { name: "Mehr dazu in der Datenschutzerklärung" })).toBeVisible();

  await data.watched(user.id, congress.id, today, vimeo(100_001), 110 * 60);
  await page.reload();
  await expect(fortbildung(page)).toContainText("147 von 180 Minuten · Voraussetzung erfüllt");
  // the package page shows the same days
  await page.goto(`/congress-package/${pkg.id}`);
  await expect(fortbildung(page)).toContainText("147 von 180 Minuten · Voraussetzung erfüllt");
});

test("an event without Fortbildung shows no line and no notice", async ({ page, data }) => {
  const user = await data.user();
  const congress = await data.congress({ firstDay: dayFromToday(0) });
  await data.content(congress.id, [contentDay("Tag 1", 1)]);
  await data.participation(user.id, congress.id);
  await loginAs(page, user);
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Tag 1" })).toBeVisible();
  await expect(fortbildung(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Mehr dazu in der Datenschutzerklärung" })).toHaveCount(0);
});

test("the organiser lists a day's participants, filters by outcome and exports the list", async ({
  page,
  data,
}) => {
  const { congress, user } = await fortbildungEvent(data);
  const admin = await data.user({ admin: true });
  await loginAs(page, admin);
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
    page.getByRole("button", { name: /als CSV herunterladen$/ }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^fortbildung-.+\.csv$/);
  const csv = await readFile(await file.path(), "utf8");
  expect(csv).toContain(`;Fenja Fortbildung;${user.email};37;144;180;0;0;Player;nein;0;2760602026000099`);
});
