import { expect, type Page } from "@playwright/test";
import {
  confirmDialog,
  dayFromToday,
  failedRequest,
  linkIn,
  login,
  openOverview,
  test,
  uniqueEmail,
  waitForMail,
} from "./fixtures";

const PASSWORD = "sicheres-Passwort-1";

/** The registration form of the login page, filled in; returns the form. */
async function fillRegistration(page: Page, email: string, path = "/login") {
  await page.goto(path);
  const form = page.getByRole("region", { name: "Neu hier? Registrieren" });
  await form.getByLabel("Vorname").fill("Erika");
  await form.getByLabel("Nachname").fill("Muster");
  await form.getByLabel("E-Mail").fill(email);
  await form.getByLabel("Passwort").fill(PASSWORD);
  await form.getByRole("checkbox", { name: /Datenschutzerklärung/ }).check();
  return form;
}

async function register(page: Page, email: string, path = "/login"): Promise<void> {
  const form = await fillRegistration(page, email, path);
  await form.getByRole("button", { name: "Registrieren" }).click();
  await confirmDialog(page, "Fast geschafft!");
}

async function confirmFromMail(page: Page, email: string): Promise<string> {
  const mail = await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse");
  const link = linkIn(mail, "/confirm-mail/");
  await page.goto(link);
  await confirmDialog(page, "E-Mail-Adresse bestätigt");
  return link;
}

test("register, confirm from the mail, log in, survive a reload, log out", async ({
  page,
  browserErrors,
}) => {
  // the first login, before the confirmation, is refused
  browserErrors.expect(failedRequest(403, "/trpc/auth.login"));
  const email = uniqueEmail("e2e-register");
  await register(page, email);

  await login(page, email, PASSWORD);
  await expect(page.getByRole("alert").filter({ hasText: "Bitte bestätigen Sie zuerst" })).toBeVisible();

  await confirmFromMail(page, email);
  await expect(page).toHaveURL(/\/login$/);

  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
  await page.getByRole("link", { name: "Profil" }).click();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText("Erika Muster")).toBeVisible();

  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
});

test("a double-click on Registrieren sends one registration", async ({ page }) => {
  const email = uniqueEmail("e2e-doppelklick");
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/trpc/auth.register")) {
      sent.push(request.url());
    }
  });
  const form = await fillRegistration(page, email);
  await form.getByRole("button", { name: "Registrieren" }).dblclick();
  await expect(form.getByRole("button", { name: "Registrierung läuft …" })).toBeDisabled();
  await confirmDialog(page, "Fast geschafft!");
  expect(sent).toHaveLength(1);
  await waitForMail(email, "Bitte bestätigen Sie Ihre E-Mail-Adresse");
});

test("registration shows the spec's messages for an empty form", async ({ page }) => {
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Neu hier? Registrieren" });
  await form.getByRole("button", { name: "Registrieren" }).click();
  for (const message of [
    "Vorname ist ein Pflichtfeld",
    "Nachname ist ein Pflichfeld",
    "E-Mail ist ein Pflichtfeld",
    "Passwort ist ein Pflichfeld",
    "Bitte nehmen Sie die Datenschutzerklärung zur Kenntnis",
  ]) {
    await expect(form.getByText(message)).toBeVisible();
  }
  const firstname = form.getByLabel("Vorname");
  await expect(firstname).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`[id="${await firstname.getAttribute("aria-describedby")}"]`)).toHaveText(
    "Vorname ist ein Pflichtfeld",
  );
});

test("a refusal of the server lands under the registration's field it concerns", async ({
  page,
  browserErrors,
}) => {
  // what a client that skips the form's own check sends: a first name longer than the server takes
  browserErrors.expect(failedRequest(400, "/trpc/auth.register"));
  await page.route("**/trpc/auth.register**", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, { json: object }>;
    for (const call of Object.values(body)) {
      Object.assign(call.json, { firstname: "E".repeat(101) });
    }
    await route.continue({ postData: JSON.stringify(body) });
  });
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Neu hier? Registrieren" });
  await form.getByLabel("Vorname").fill("Erika");
  await form.getByLabel("Nachname").fill("Muster");
  await form.getByLabel("E-Mail").fill(uniqueEmail("e2e-refused"));
  await form.getByLabel("Passwort").fill(PASSWORD);
  await form.getByRole("checkbox", { name: /Datenschutzerklärung/ }).check();
  const answer = page.waitForResponse((response) => response.url().includes("/trpc/auth.register"));
  await form.getByRole("button", { name: "Registrieren" }).click();
  const [refusal] = (await (await answer).json()) as [
    { error: { json: { data: { fieldErrors?: Record<string, string[]> } } } },
  ];
  const message = refusal.error.json.data.fieldErrors?.firstname?.[0] ?? "";
  expect(message).not.toBe("");

  // under the field, tied to it and announced; no error dialog
  const field = form.getByLabel("Vorname");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(message);
  await expect(form.getByRole("alert")).toHaveText(message);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(form.getByLabel("Nachname")).not.toHaveAttribute("aria-invalid", "true");
});

test("a wrong password is reported inline", async ({ page, data, browserErrors }) => {
  browserErrors.expect(failedRequest(401, "/trpc/auth.login"));
  const user = await data.user();
  await page.goto("/login");
  await login(page, user.email, "falsch-falsch");
  await expect(
    page.getByText(
      "Die angegebene Kombination aus E-Mail-Adresse und Passwort ist ungültig. Bitte versuchen Sie es erneut.",
    ),
  ).toBeVisible();
});

test("forgot and reset the password", async ({ page }) => {
  const email = uniqueEmail("e2e-reset");
  await register(page, email);
  await confirmFromMail(page, email);

  await page.goto("/resetPassword/ungueltiger-token");
  await expect(page).toHaveURL(/\/forgot-password$/);

  await page.getByLabel("E-Mail").fill(email);
  await page.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  await confirmDialog(page, "Passwort vergessen");

  const mail = await waitForMail(email, "Passwort zurücksetzen");
  await page.goto(linkIn(mail, "/resetPassword/"));
  await expect(page).toHaveURL(/\/resetPassword$/);

  await page.getByLabel("Neues Passwort", { exact: true }).fill("neues-Passwort-2");
  await page.getByLabel("Neues Passwort bestätigen").fill("anderes-Passwort-2");
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  await expect(page.getByText("Die beiden Passwörter stimmen nicht überein")).toBeVisible();

  await page.getByLabel("Neues Passwort bestätigen").fill("neues-Passwort-2");
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  // spec section 7: "success or error dialog"
  await expect(page.getByRole("dialog", { name: "Passwort geändert" })).toHaveAttribute(
    "data-mode",
    "success",
  );
  await confirmDialog(page, "Passwort geändert");
  await expect(page).toHaveURL(/\/login$/);

  await login(page, email, "neues-Passwort-2");
  await expect(page).toHaveURL(/\/$/);
});

test("a password reset in another browser ends the session open in this one at its next call", async ({
  page,
  browser,
  browserErrors,
  signIn,
}) => {
  // the ended session: the profile call and the renewal are refused; the router reports the refused
  // preload of the profile route (hovering its link) on the console
  browserErrors.expect(failedRequest(401, "/trpc/account.getProfile"));
  browserErrors.expect(failedRequest(401, "/api/auth/token/refresh"));
  browserErrors.expect(/^TRPCClientError: Bitte melden Sie sich an\./);
  const email = uniqueEmail("e2e-ended");
  await register(page, email);
  await confirmFromMail(page, email);
  await signIn({ email });
  await openOverview(page);
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto("/forgot-password");
  await other.getByLabel("E-Mail").fill(email);
  await other.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  await confirmDialog(other, "Passwort vergessen");
  await other.goto(linkIn(await waitForMail(email, "Passwort zurücksetzen"), "/resetPassword/"));
  await other.getByLabel("Neues Passwort", { exact: true }).fill("neues-Passwort-3");
  await other.getByLabel("Neues Passwort bestätigen").fill("neues-Passwort-3");
  await other.getByRole("button", { name: "Passwort speichern" }).click();
  await confirmDialog(other, "Passwort geändert");
  await elsewhere.close();

  // no reload here: the next call is refused, the refresh too, and the visitor signs in again
  await page.getByRole("link", { name: "Profil" }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile/);
  await confirmDialog(page, "Nicht angemeldet!");
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeHidden();
  await login(page, email, "neues-Passwort-3");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(email)).toBeVisible();
});

test("a migrated user sets a password from the mailed link", async ({ page, browserErrors }) => {
  // a migrated account without a password is refused until it has one
  browserErrors.expect(failedRequest(403, "/trpc/auth.login"));
  await page.goto("/login");
  await login(page, "migriert@example.com", "irgendwas");
  await expect(
    page.getByRole("alert").filter({ hasText: "Ihr Konto wurde auf unsere neue Plattform übertragen" }),
  ).toBeVisible();

  const mail = await waitForMail("migriert@example.com", "Bitte legen Sie Ihr Passwort fest");
  await page.goto(linkIn(mail, "/migration/set-password/"));
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  await expect(page.getByText("Das Passwort ist ein Pflichfeld!")).toBeVisible();

  await page.getByLabel("Passwort", { exact: true }).fill("kurz");
  await page.getByLabel("Passwort bestätigen").fill("kurz");
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  await expect(page.getByText("Bitte benutzen Sie ein Passwort mit mindestens 8 Zeichen.")).toBeVisible();

  await page.getByLabel("Passwort", { exact: true }).fill("migriert-Passwort-1");
  await page.getByLabel("Passwort bestätigen").fill("anders-Passwort-1");
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  await expect(page.getByRole("alertdialog")).toContainText(
    "Die Inhalte der beiden Passwort-Felder müssen übereinstimmen!",
  );
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();

  await page.getByLabel("Passwort bestätigen").fill("migriert-Passwort-1");
  await page.getByRole("button", { name: "Passwort speichern" }).click();
  await expect(page.getByRole("dialog", { name: "Passwort festgelegt" })).toHaveAttribute(
    "data-mode",
    "success",
  );
  await confirmDialog(page, "Passwort festgelegt");
  await login(page, "migriert@example.com", "migriert-Passwort-1");
  await expect(page).toHaveURL(/\/$/);
});

test("login follows the congressId and showVideo rules, also when already logged in", async ({
  page,
  data,
}) => {
  const user = await data.user();
  const running = await data.runningCongress(user.id);
  const future = await data.congress({ firstDay: dayFromToday(21) });
  await page.goto(`/login/${running.id}/1`);
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`/congress/${running.id}$`));

  await page.goto(`/login/${future.id}`);
  await expect(page).toHaveURL(new RegExp(`/participation/${future.id}$`));
  await page.goto("/login");
  await expect(page).toHaveURL(/\/$/);
});

test("login with only a congressId goes to participation creation", async ({ page, data }) => {
  const user = await data.user();
  const congress = await data.congress({ firstDay: dayFromToday(40) });
  await page.goto(`/login/${congress.id}`);
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`/participation/${congress.id}$`));
});
