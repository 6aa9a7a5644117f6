import { expect } from "@playwright/test";
import { expectAccessible, failedRequest, test } from "./fixtures";

test("an anonymous visitor opening / lands on the login page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
});

test("a guarded deep link also goes to login", async ({ page }) => {
  await page.goto("/admin/manage");
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login/);
});

test("an unknown path shows the 404 page", async ({ page, browserErrors }) => {
  // an unknown path may be a password-gated page: the server says it is not
  browserErrors.expect(failedRequest(404, "/trpc/gated.resolve"));
  const response = await page.goto("/gibt-es-nicht/wirklich");
  expect(response?.status()).toBe(200); // the SPA answers; the router renders the not-found page
  await expect(page.getByText("Die gesuchte Seite wurde leider nicht gefunden.")).toBeVisible();
});

test("the footer links to the public data-protection and imprint pages", async ({ page }) => {
  await page.goto("/login");
  const year = String(new Date().getFullYear());
  await expect(page.locator("footer")).toContainText(year);
  await page.locator("footer").getByRole("link", { name: "Datenschutz" }).click();
  await expect(page).toHaveURL(/\/datenschutz$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Datenschutz");
  await page.locator("footer").getByRole("link", { name: "Impressum" }).click();
  await expect(page).toHaveURL(/\/impressum$/);
});

test("login and 404 pages have no accessibility violations (WCAG 2.1 AA)", async ({
  page,
  browserErrors,
}) => {
  browserErrors.expect(failedRequest(404, "/trpc/gated.resolve"));
  for (const path of ["/login", "/gibt-es-nicht"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  }
});
