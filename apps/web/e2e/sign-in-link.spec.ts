import { MSG } from "@app/shared";
import { expect } from "@playwright/test";
import { failedRequest, linkIn, login, test, waitForMail } from "./fixtures";

/**
 * ADR 0091: strangers' failed guesses close an account to unknown browsers for a
 * while (ADR 0059); its owner on a new browser still gets in, through a one-time link by mail.
 */
test("a stranger burns the account's budget; the owner on a fresh browser gets in through the mailed link", async ({
  page,
  request,
  data,
  browserErrors,
}) => {
  // 100 argon2id checks before the browser even starts: slow on two busy cores
  test.setTimeout(180_000);
  browserErrors.expect(failedRequest(429, "/trpc/auth.login"));
  const owner = await data.user();
  // 100 wrong passwords from ten addresses: the account takes no more passwords from unknown devices
  for (let net = 0; net < 10; net++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request.post("/api/auth/login", {
          data: { email: owner.email, password: `geraten-${net}-${i}` },
          headers: { "x-forwarded-for": `198.18.${net}.${i + 1}` },
        }),
      ),
    );
    expect(answers.map((res) => res.status())).toEqual(Array<number>(10).fill(401));
  }

  // the owner, on a browser the account has never seen, with the right password
  await page.goto("/login");
  await login(page, owner.email, owner.password);
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await expect(form.getByRole("alert")).toContainText(MSG.signInLinkOffer);
  await form.getByRole("button", { name: MSG.signInLinkAction }).click();
  await expect(form.getByRole("status")).toHaveText(MSG.signInLinkSent);

  const mail = await waitForMail(owner.email, "Ihr Anmeldelink");
  const link = linkIn(mail, "/login-link/");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Anmeldung per E-Mail-Link" })).toBeVisible();
  await page.getByRole("button", { name: "Jetzt anmelden" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();

  // the link is spent: opened again it says so
  browserErrors.expect(failedRequest(400, "/trpc/auth.signInWithLink"));
  await page.goto(link);
  await page.getByRole("button", { name: "Jetzt anmelden" }).click();
  await expect(page.getByRole("alert")).toHaveText(MSG.signInLinkInvalid);
});
