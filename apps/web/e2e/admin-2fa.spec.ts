import { expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { adminNav } from "./admin-nav";
import type { TestData } from "./data";
import { expectAccessible, failedRequest, login, openOverview, type SignIn, test } from "./fixtures";

/** A code of the authenticator app, `steps` time steps (30 s) from now; the server takes one step either side. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

async function signedIn(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

async function logout(page: Page) {
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** The notice that asks an admin without two-factor login to set it up. */
const notice = (page: Page) => page.getByRole("region", { name: "Schützen Sie Ihr Administrationskonto" });

/** The quiet line that stays while the notice is postponed. */
const setUpLater = (page: Page) => page.getByRole("button", { name: "Zwei-Faktor-Anmeldung einrichten" });

const WEEK = 7 * 24 * 60 * 60 * 1000;

/**
 * Sets up two-factor login from the administration's notice (a wrong code first) and returns the secret and
 * the recovery codes shown; the current time step is spent afterwards.
 */
async function setUpTwoFactor(page: Page) {
  // entering the administration asks for the setup
  await page.getByRole("link", { name: "Administration" }).click();
  await expect(notice(page)).toBeVisible();
  await notice(page).getByRole("button", { name: "Jetzt einrichten" }).click();
  return confirmSetup(page);
}

/** The setup dialog, opened: a wrong code, then the right one; returns the secret and the recovery codes. */
async function confirmSetup(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Zwei-Faktor-Anmeldung einrichten" });
  const qr = dialog.getByRole("img", { name: "QR-Code für die Authentifizierungs-App" });
  await expect(qr).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);
  const secret = ((await dialog.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeField = dialog.getByLabel("Bestätigungscode aus Ihrer Authentifizierungs-App");
  await codeField.fill("000000");
  await dialog.getByRole("button", { name: "Aktivieren" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Bestätigungscode ist ungültig");
  await codeField.fill(codeOf(secret));
  await dialog.getByRole("button", { name: "Aktivieren" }).click();

  const list = dialog.getByRole("list", { name: "Wiederherstellungscodes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const recoveryCodes = await list.getByRole("listitem").allInnerTexts();
  await dialog.getByRole("button", { name: "Ich habe die Codes notiert" }).click();
  await expect(
    page.getByText("Zwei-Faktor-Anmeldung aktiv (10 Wiederherstellungscodes übrig)"),
  ).toBeVisible();
  await expect(notice(page)).toBeHidden();

  return { secret, recoveryCodes };
}

/** A fresh admin, signed in (without two-factor login yet), who has just set up two-factor login. */
async function withTwoFactor({ page, data, signIn }: { page: Page; data: TestData; signIn: SignIn }) {
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await openOverview(page);
  return { admin, ...(await setUpTwoFactor(page)) };
}

test("a new admin sets up two-factor login, then signs in with an app code and with a recovery code", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the wrong codes this test enters on purpose: at the setup, at a login and a spent recovery code
  browserErrors.expect(failedRequest(400, "/trpc/admin.twoFactor.enable"));
  browserErrors.expect(failedRequest(401, "/trpc/auth.loginTwoFactor"));
  const { admin, secret, recoveryCodes } = await withTwoFactor({ page, data, signIn });

  // the password alone is not enough any more: the app's code (of the next time step: the setup spent this one)
  await logout(page);
  await login(page, admin.email, admin.password);
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  const appCode = form.getByLabel("Bestätigungscode aus Ihrer Authentifizierungs-App");
  await expect(appCode).toBeFocused();
  await appCode.fill("123456");
  await appCode.press("Enter");
  await expect(form.getByRole("alert")).toContainText("ungültig oder wurde bereits verwendet");
  await appCode.fill(codeOf(secret, 1));
  await appCode.press("Enter");
  await signedIn(page);

  // a recovery code instead, once
  await logout(page);
  await login(page, admin.email, admin.password);
  await form.getByRole("button", { name: "Wiederherstellungscode verwenden" }).click();
  const recovery = form.getByLabel("Wiederherstellungscode");
  await recovery.fill(recoveryCodes[0] ?? "");
  await recovery.press("Enter");
  await signedIn(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await expect(page.getByText("Zwei-Faktor-Anmeldung aktiv (9 Wiederherstellungscodes übrig)")).toBeVisible();

  await logout(page);
  await login(page, admin.email, admin.password);
  await form.getByRole("button", { name: "Wiederherstellungscode verwenden" }).click();
  await recovery.fill(recoveryCodes[0] ?? "");
  await recovery.press("Enter");
  await expect(form.getByRole("alert")).toContainText("ungültig oder wurde bereits verwendet");
});

test("an admin without two-factor login postpones the notice; it stays away on reload and returns a week later", async ({
  page,
  data,
  signIn,
}) => {
  const admin = await data.user({ admin: true });
  // The browser's clock starts eight days back and stands still: the postponement is a moment the browser
  // keeps, and the session's tokens (valid minutes from the server's real time) stay fresh for it.
  const start = Date.now() - 8 * 24 * 60 * 60 * 1000;
  await page.clock.setFixedTime(start);
  await signIn(admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await notice(page).getByRole("button", { name: "In einer Woche erinnern" }).click();
  await expect(notice(page)).toBeHidden();
  // the focus goes to what stays: the way to the setup
  await expect(setUpLater(page)).toBeFocused();

  await page.reload();
  await expect(adminNav(page)).toBeVisible();
  await expect(setUpLater(page)).toBeVisible();
  await expect(notice(page)).toBeHidden();

  await page.clock.setFixedTime(start + WEEK - 60_000);
  await page.reload();
  await expect(setUpLater(page)).toBeVisible();
  await expect(notice(page)).toBeHidden();

  await page.clock.setFixedTime(start + WEEK);
  await page.reload();
  await expect(notice(page)).toBeVisible();
  await expect(setUpLater(page)).toHaveCount(0);
});

test("an admin who postponed the notice sets up two-factor login later; the notice never returns", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  browserErrors.expect(failedRequest(400, "/trpc/admin.twoFactor.enable"));
  const start = Date.now() - 8 * 24 * 60 * 60 * 1000;
  await page.clock.setFixedTime(start);
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await notice(page).getByRole("button", { name: "In einer Woche erinnern" }).click();
  await setUpLater(page).click();
  await confirmSetup(page);

  // a week later, and after the session was renewed on the reload
  await page.clock.setFixedTime(start + WEEK);
  await page.reload();
  await expect(
    page.getByText("Zwei-Faktor-Anmeldung aktiv (10 Wiederherstellungscodes übrig)"),
  ).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
  await expect(setUpLater(page)).toHaveCount(0);
});

test("an admin renews the recovery codes with an app code; the earlier codes stop working", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the wrong codes this test enters on purpose: at the setup, at the renewal and a replaced recovery code
  browserErrors.expect(failedRequest(400, "/trpc/admin.twoFactor.enable"));
  browserErrors.expect(failedRequest(400, "/trpc/admin.twoFactor.renewRecoveryCodes"));
  browserErrors.expect(failedRequest(401, "/trpc/auth.loginTwoFactor"));
  const { admin, secret, recoveryCodes } = await withTwoFactor({ page, data, signIn });

  await page.getByRole("button", { name: "Neue Wiederherstellungscodes erstellen" }).click();
  const dialog = page.getByRole("dialog", { name: "Neue Wiederherstellungscodes" });
  await expectAccessible(page, "Neue Wiederherstellungscodes");
  const codeField = dialog.getByLabel("Bestätigungscode aus Ihrer Authentifizierungs-App");
  await codeField.fill(recoveryCodes[0] ?? "");
  await dialog.getByRole("button", { name: "Neue Codes erstellen" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Bestätigungscode ist ungültig");
  // the next time step: the setup spent this one
  await codeField.fill(codeOf(secret, 1));
  await dialog.getByRole("button", { name: "Neue Codes erstellen" }).click();
  const list = dialog.getByRole("list", { name: "Wiederherstellungscodes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const renewed = await list.getByRole("listitem").allInnerTexts();
  expect(renewed.filter((code) => recoveryCodes.includes(code))).toEqual([]);
  await expectAccessible(page, "Neue Wiederherstellungscodes (Codes)");
  await dialog.getByRole("button", { name: "Ich habe die Codes notiert" }).click();
  await expect(page.getByRole("button", { name: "Neue Wiederherstellungscodes erstellen" })).toBeFocused();
  await expect(
    page.getByText("Zwei-Faktor-Anmeldung aktiv (10 Wiederherstellungscodes übrig)"),
  ).toBeVisible();

  await logout(page);
  await login(page, admin.email, admin.password);
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await form.getByRole("button", { name: "Wiederherstellungscode verwenden" }).click();
  const recovery = form.getByLabel("Wiederherstellungscode");
  await recovery.fill(recoveryCodes[1] ?? "");
  await recovery.press("Enter");
  await expect(form.getByRole("alert")).toContainText("ungültig oder wurde bereits verwendet");
  await recovery.fill(renewed[0] ?? "");
  await recovery.press("Enter");
  await signedIn(page);
});
