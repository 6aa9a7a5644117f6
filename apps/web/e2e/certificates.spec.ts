import { readFile } from "node:fs/promises";
import { MSG_CERTIFICATE } from "@app/shared";
import { expect } from "@playwright/test";
import { vimeo } from "./data";
import { dayFromToday, expectAccessible, test } from "./fixtures";

const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** ADR 0116, ADR 0117, ADR 0118: the certificate in the profile, its verification page, and a revoke. */

test("a participant who met the rule downloads the certificate, it verifies, and after a revoke it says so", async ({
  page,
  browser,
  data,
  signIn,
}) => {
  // two logins, a PDF and three pages: long on two busy cores
  test.slow();
  await data.certificateIssuer();
  const first = dayFromToday(-2);
  const congress = await data.congress({
    fortbildung: true,
    vnr: "2760602026000123",
    fortbildungCategory: "B",
    pointsPerDay: 6,
    firstDay: first,
    lastDay: dayFromToday(-1),
  });
  // a video of this test only: the lengths are shared by every test
  const url = vimeo(340_000 + Math.floor(Math.random() * 50_000));
  await data.content(congress.id, [
    { name: "Tag 1", exclusive_date: "", videos: [{ url, comment: "Vortrag" }] },
  ]);
  await data.videoLength(url, 600);
  // the EFN's check digit is worked out in packages/shared/src/efn.test.ts
  const user = await data.user({ firstname: "Łukasz", lastname: "Nguyễn", efn: "802760901234566" });
  await data.participation(user.id, congress.id);
  await data.watched(user.id, congress.id, first, url, 540);

  await signIn(user);
  await page.goto("/profile");
  const mine = page.getByRole("region", { name: "Meine Bescheinigungen" });
  await expect(mine).toContainText(congress.title);
  await expect(mine).toContainText("6 Punkte");
  await expectAccessible(page, "Meine Bescheinigungen");
  const download = page.waitForEvent("download");
  await mine.getByRole("button", { name: /^PDF herunterladen/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^teilnahmebescheinigung-\d{4}-\d{6}\.pdf$/);
  expect((await readFile(await file.path())).subarray(0, 5).toString()).toBe("%PDF-");

  const verifyUrl = await mine.getByRole("link", { name: /^Echtheit prüfen/ }).getAttribute("href");
  expect(verifyUrl).toMatch(/\/bescheinigung\/[A-Za-z0-9_-]{24}$/);
  const check = await (await browser.newContext()).newPage();
  const verified = await check.goto(verifyUrl ?? "");
  expect(verified?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  await expect(check.getByRole("heading", { level: 1, name: "Echte Bescheinigung" })).toBeVisible();
  await expect(check.getByText("Łukasz Nguyễn")).toBeVisible();
  await expect(check.getByText("2760602026000123")).toBeVisible();
  // anyone with the code reads this page: the EFN by its last four digits only, and said so
  await expect(check.getByText("XXXXXXXXXXX4566", { exact: true })).toBeVisible();
  await expect(check.getByText(MSG_CERTIFICATE.efnMasked)).toBeVisible();
  expect(await check.content()).not.toContain("802760901234566");
  await expect(check.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await expectAccessible(check, "Prüfseite einer Bescheinigung");

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(await data.user({ admin: true }), admin);
  await admin.goto(`/admin/manage/certificates?congress=${congress.id}`);
  const row = admin
    .getByRole("table", { name: "Bescheinigungen" })
    .getByRole("row")
    .filter({ hasText: user.email });
  await expect(row).toContainText("Łukasz Nguyễn");
  await expect(row).toContainText("Gültig");
  await expectAccessible(admin, "Bescheinigungen (Administration)");
  // on a phone the table scrolls in its frame; the buttons' screen-reader texts do not widen the page
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(row).toContainText("Gültig");
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await admin.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole("button", { name: /^Widerrufen/ }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByRole("button", { name: "Widerrufen" }).click();
  await expect(dialog.getByText("Bitte geben Sie einen Grund für den Widerruf an.")).toBeVisible();
  await expectAccessible(admin, "Widerruf einer Bescheinigung");
  await dialog.getByLabel("Grund des Widerrufs").fill("Teilnahme nachträglich aberkannt");
  await dialog.getByRole("button", { name: "Widerrufen" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText("Widerrufen am");

  await check.reload();
  await expect(check.getByRole("heading", { level: 1, name: "Bescheinigung widerrufen" })).toBeVisible();
  await expect(check.getByText(/wurde am \d{2}\.\d{2}\.\d{4} widerrufen/)).toBeVisible();
  await expect(check.getByText("aberkannt")).toHaveCount(0);

  await check.goto(`${new URL(verifyUrl ?? "").origin}/bescheinigung/keine-echte-nummer`);
  await expect(check.getByRole("heading", { level: 1, name: "Keine gültige Bescheinigung" })).toBeVisible();
  await check.context().close();
  await adminContext.close();
});

test("an admin sets the issuer's signatory and logo in the section Bescheinigungen", async ({
  page,
  data,
  signIn,
}) => {
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await page.goto("/admin/manage/certificates");
  const issuer = page.getByRole("region", { name: "Aussteller" });
  await expect(issuer.getByLabel("Name des Veranstalters")).not.toHaveValue("");
  const signatory = `Dr. Zofia Wójcik ${Date.now()}`;
  await issuer.getByLabel("Unterzeichnende Person").fill(signatory);
  await issuer.getByLabel("Bild auswählen …: Logo").setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: Buffer.from(PIXEL_PNG, "base64"),
  });
  await expect(issuer.getByRole("img", { name: "Vorschau: Logo" })).toBeVisible();
  await issuer.getByRole("button", { name: "Aussteller speichern" }).click();
  await expect(page.getByText("Der Aussteller ist gespeichert.", { exact: false })).toBeVisible();
  await page.reload();
  await expect(issuer.getByLabel("Unterzeichnende Person")).toHaveValue(signatory);
  await expect(issuer.getByRole("img", { name: "Vorschau: Logo" })).toBeVisible();
  await expect(issuer.getByRole("img", { name: "Vorschau: Unterschrift" })).toHaveCount(0);
});
