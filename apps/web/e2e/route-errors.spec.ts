import { expect } from "@playwright/test";
import { openOverview, test } from "./fixtures";

/** The tRPC batch answer of a server error: one `{title, detail}` error per call the request carried. */
function internalErrorBatch(url: string, detail: string): string {
  const calls = new URL(url).pathname.replace(/^\/trpc\//, "").split(",");
  const error = {
    error: {
      json: {
        message: detail,
        code: -32603,
        data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, title: "Ein Fehler ist aufgetreten", detail },
      },
    },
  };
  return JSON.stringify(calls.map(() => error));
}

test("a page whose data fails to load shows the German error page inside the layout", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the forced 500s as the browser logs them, and the failed load as the router reports it
  browserErrors.expect(/status of 500 .*\/trpc\/[^ ]*account\.getProfile/);
  browserErrors.expect(/^TRPCClientError: Das Profil konnte gerade nicht geladen werden\./);
  browserErrors.expect(/^TRPCClientError: x\n/);
  await signIn(await data.user());
  await openOverview(page);
  await page.route("**/trpc/account.getProfile*", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      headers: { "x-request-id": "e2e-profile-500" },
      body: internalErrorBatch(route.request().url(), "Das Profil konnte gerade nicht geladen werden."),
    }),
  );
  await page.goto("/profile");

  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Ein Fehler ist aufgetreten" })).toBeVisible();
  await expect(main.getByRole("alert")).toHaveText("Das Profil konnte gerade nicht geladen werden.");
  await expect(main).toContainText("Bitte versuchen Sie es später erneut");
  await expect(main.getByText("e2e-profile-500")).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  // header and footer stay
  await expect(page.getByRole("banner").getByRole("button", { name: "Abmelden" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();

  // once the server answers again, "Erneut versuchen" loads the page
  await page.unroute("**/trpc/account.getProfile*");
  await main.getByRole("button", { name: "Erneut versuchen" }).click();
  await expect(main.getByRole("heading", { level: 1, name: "Mein Profil" })).toBeVisible();

  // the way back to the overview
  await page.route("**/trpc/account.getProfile*", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: internalErrorBatch(route.request().url(), "x"),
    }),
  );
  await page.goto("/profile");
  await main.getByRole("link", { name: "Zurück zur Übersicht" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
});

test("an address whose id is not a number shows the German not-found page without asking the server", async ({
  page,
  data,
  signIn,
}) => {
  await signIn(await data.user());
  await openOverview(page);
  const calls: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/trpc/") || pathname.startsWith("/api/")) {
      calls.push(decodeURIComponent(request.url()));
    }
  });

  for (const path of [
    "/congress/abc",
    "/participation/0",
    "/congress-package/1e3",
    "/congress-ticket-purchase/-4",
    "/migration/set-password/abc/e2e-hash",
  ]) {
    await page.goto(path);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: "Seite nicht gefunden" })).toBeVisible();
    await expect(main).toContainText("Die gesuchte Seite wurde leider nicht gefunden.");
    await expect(main.getByRole("link", { name: "Zurück zur Übersicht" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("button", { name: "Abmelden" })).toBeVisible();
  }
  // only the session's renewal on each load: no page data, no lookup of the path as a gated page
  expect(calls.filter((url) => !url.includes("/api/auth/token/refresh"))).toEqual([]);
});
