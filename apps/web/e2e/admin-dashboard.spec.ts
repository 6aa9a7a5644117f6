import { expect } from "@playwright/test";
import { adminSectionLink } from "./admin-nav";
import { DEMO, openOverview, test } from "./fixtures";

test("the administration opens on the dashboard with its figures and charts", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.runningCongress((await data.user()).id);
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();

  await expect(adminSectionLink(page, "Übersicht")).toHaveAttribute("aria-current", "page");
  const mail = page.getByRole("region", { name: "E-Mail-Versand" });
  await expect(mail.getByText("Heute versendet")).toBeVisible();
  const congresses = page.getByRole("table", { name: "Laufende und kommende Veranstaltungen" });
  await expect(congresses.getByRole("row", { name: new RegExp(`${congress.title}.*läuft`) })).toBeVisible();

  for (const title of ["Verkäufe pro Tag (bezahlt)", "Registrierungen pro Tag", /^Anwesenheit pro Tag/]) {
    const figure = page.getByRole("figure", { name: title });
    // the drawing (legend icons are small svgs of their own)
    await expect(figure.locator("svg.recharts-surface").last()).toBeVisible();
    // the day axis is drawn with German short dates
    await expect(
      figure
        .locator("svg text")
        .filter({ hasText: /^\d{2}\.\d{2}\.$/ })
        .first(),
    ).toBeVisible();
    await figure.getByText("Werte als Tabelle").click();
    // one row per day of the 30 days, plus the header
    await expect(figure.getByRole("row")).toHaveCount(31);
  }
});
