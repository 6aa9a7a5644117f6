import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import { DEMO, failedRequest, login, newConfirmedUser, test } from "./fixtures";

/** DSGVO self-service on the profile page, the legal pages, and no third party before consent. */

const card = (page: Page, name: string) => page.getByRole("region", { name });

test("newsletter consent is given and withdrawn on the profile, with its history", async ({
  page,
  request,
  data,
  signIn,
}) => {
  const user = await newConfirmedUser(request, data, "newsletter");
  await signIn(user);
  await page.goto("/profile");
  const consents = card(page, "Newsletter und Einwilligungen");
  await expect(
    consents.getByText(/Datenschutzerklärung – Einwilligung erteilt bei der Registrierung/),
  ).toBeVisible();

  const toggle = consents.getByRole("switch", { name: "Ich möchte den Newsletter erhalten" });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(page.getByText("Sie erhalten ab jetzt unseren Newsletter.")).toBeVisible();
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(
    page.getByText("Sie haben den Newsletter abbestellt. Ihre Einwilligung ist widerrufen."),
  ).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(consents.getByText(/Newsletter – Einwilligung erteilt im Profil/)).toBeVisible();
  await expect(consents.getByText(/Newsletter – Einwilligung widerrufen im Profil/)).toBeVisible();
});

test("a visitor downloads all their data as JSON", async ({ page, request, data, signIn }) => {
  const user = await newConfirmedUser(request, data, "export");
  await signIn(user);
  await page.goto("/profile");
  const downloading = page.waitForEvent("download");
  await card(page, "Meine Daten").getByRole("button", { name: "Meine Daten herunterladen" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^meine-daten-\d{4}-\d{2}-\d{2}\.json$/);
  const mine = JSON.parse(await readFile((await download.path()) ?? "", "utf8"));
  expect(mine.account).toMatchObject({ email: user.email, firstname: "Erika", lastname: "Muster" });
  expect(mine.consents).toEqual([expect.objectContaining({ kind: "privacy-policy", granted: true })]);
  expect(JSON.stringify(mine)).not.toMatch(/passwordHash|argon2/);
});

test("a visitor deletes their account after the password; the login is gone", async ({
  page,
  request,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(400, "/trpc/account.delete")); // the wrong password
  browserErrors.expect(failedRequest(401, "/trpc/auth.login")); // the deleted account
  const user = await newConfirmedUser(request, data, "delete");
  await signIn(user);
  await page.goto("/profile");
  const opener = card(page, "Konto löschen").getByRole("button", { name: "Konto löschen …" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Konto endgültig löschen?" });
  const password = dialog.getByLabel("Passwort");
  await dialog.getByRole("button", { name: "Konto endgültig löschen" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert")).toHaveText("Bitte geben Sie zur Bestätigung Ihr Passwort ein.");

  await password.fill("falsches-Passwort");
  await dialog.getByRole("button", { name: "Konto endgültig löschen" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Das Passwort ist nicht korrekt.");
  // Escape closes and gives the focus back
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByLabel("Passwort").fill(user.password);
  await dialog.getByRole("button", { name: "Konto endgültig löschen" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Ihr Konto wurde gelöscht.")).toBeVisible();
  await page.getByRole("button", { name: "OK" }).click();

  await login(page, user.email, user.password);
  await expect(page.getByText(/Kombination aus E-Mail-Adresse und Passwort ist ungültig/)).toBeVisible();
});

test("admins edit the Impressum; the footer links the accessibility statement", async ({ page, signIn }) => {
  await signIn(DEMO.admin);
  await page.goto("/admin/manage/legal-pages");
  await page.getByLabel("Seite", { exact: true }).selectOption({ label: "Impressum" });
  const editor = page.getByLabel("Impressum", { exact: true });
  await expect(editor).toContainText("Angaben gemäß § 5 DDG");
  const company = `Kongress GmbH ${Date.now()}`;
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(company);
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Die Seite wurde gespeichert.")).toBeVisible();
  await expect(page.getByText(/^Zuletzt gespeichert am \d{2}\.\d{2}\.\d{4}/)).toBeVisible();

  await page.goto("/impressum");
  await expect(page.getByRole("heading", { level: 1, name: "Impressum" })).toBeVisible();
  await expect(page.getByText(company)).toBeVisible();

  await page
    .getByRole("navigation", { name: "Rechtliches" })
    .getByRole("link", { name: "Barrierefreiheit" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Erklärung zur Barrierefreiheit" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Feedback und Kontakt" })).toBeVisible();
});

test("no request leaves our origin before the video consent click", async ({
  page,
  baseURL,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.runningCongress(user.id);
  const pkg = await data.package(congress.id);
  await data.packageOrder(user.id, pkg.id);
  const origin = new URL(baseURL ?? "").origin;
  const foreign: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (!["data:", "blob:"].includes(url.protocol) && url.origin !== origin) {
      foreign.push(req.url());
    }
  });
  await page.route(
    (url) => url.hostname.endsWith("vimeo.com"),
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Player</title>" }),
  );
  // the login page as well, before the session
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await signIn(user);
  for (const path of [
    "/",
    "/profile",
    `/congress-package/${pkg.id}`,
    "/datenschutz",
    "/impressum",
    "/barrierefreiheit",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("button", { name: /^Video abspielen/ }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(foreign).toEqual([]);

  await page
    .getByRole("button", { name: /^Video abspielen/ })
    .first()
    .click();
  await expect(page.locator("iframe")).toHaveCount(1);
  await expect.poll(() => foreign.map((url) => new URL(url).hostname)).toContain("player.vimeo.com");
});
