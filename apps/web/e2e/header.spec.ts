import { expect, type Page } from "@playwright/test";
import { openOverview, test } from "./fixtures";

// Spec section 1: "Header: product logo and three publisher logos", on phones too.
const PUBLISHERS = ["Verlag Horizont", "Edition Brücke", "Forum Dialog"];

async function expectLogosWithoutScrolling(page: Page, width: number) {
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Kongress-Plattform, zur Startseite" })).toBeInViewport();
  const publishers = header.getByRole("list", { name: "Herausgeber" });
  for (const name of PUBLISHERS) {
    const logo = publishers.getByRole("img", { name });
    await expect(logo).toBeVisible();
    await expect(logo).toBeInViewport();
  }
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `the page is ${scrollWidth} px wide`).toBeLessThanOrEqual(width);
}

for (const width of [390, 320]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("the header shows the product logo and the three publisher logos without horizontal scrolling", async ({
      page,
      data,
      signIn,
    }) => {
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
      await expectLogosWithoutScrolling(page, width);

      const user = await data.user();
      await signIn(user);
      await openOverview(page);
      await expect(page.getByRole("button", { name: "Abmelden" })).toBeInViewport();
      await expectLogosWithoutScrolling(page, width);
    });
  });
}
