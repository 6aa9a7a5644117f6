import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import { dayFromToday, openOverview, test } from "./fixtures";

const congressCard = (page: Page, title: string) => page.getByRole("article", { name: title });

/** Clicks `button`, waits for the file the app saves and returns it with its name. */
async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), content: await readFile(path) };
}

test("a participant saves the calendar file of an event and of a webinar from the overview", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.runningCongress(user.id);
  const webinarCongress = await data.congress({
    webinar: true,
    webinarUrl: "https://example.com/webinar/achtsamkeit",
    webinarStartTime: "18:00",
    firstDay: dayFromToday(0),
  });
  await data.participation(user.id, webinarCongress.id);
  const other = await data.congress({ webinar: true, webinarStartTime: "19:30", firstDay: dayFromToday(10) });
  await signIn(user);
  await openOverview(page);
  const card = congressCard(page, congress.title);
  const ics = await download(page, () =>
    card.getByRole("button", { name: /^In den Kalender eintragen/ }).click(),
  );
  expect(ics.name).toMatch(/^veranstaltung-\d+\.ics$/);
  const text = ics.content.toString("utf8").replace(/\r\n /g, "");
  expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
  expect(text).toContain(`SUMMARY:${congress.title}`);
  expect(text).toMatch(/DTSTART;VALUE=DATE:\d{8}\r\n/);

  const webinar = congressCard(page, webinarCongress.title);
  const webinarIcs = await download(page, () =>
    webinar.getByRole("button", { name: /^In den Kalender eintragen/ }).click(),
  );
  const webinarText = webinarIcs.content.toString("utf8").replace(/\r\n /g, "");
  expect(webinarText).toMatch(/DTSTART;TZID=Europe\/Berlin:\d{8}T\d{6}\r\n/);
  expect(webinarText).toContain("https://example.com/webinar/achtsamkeit");

  // an event the visitor has not signed up for offers no calendar file
  await expect(congressCard(page, other.title)).toBeVisible();
  await expect(
    congressCard(page, other.title).getByRole("button", {
      name: /In den Kalender eintragen/,
    }),
  ).toHaveCount(0);
});

test("after opening a video the participant downloads an attendance confirmation", async ({
  page,
  data,
  signIn,
}) => {
  const user = await data.user();
  const congress = await data.runningCongress(user.id);
  await page.route(
    (url) => url.hostname.endsWith("vimeo.com"),
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Player</title>" }),
  );
  await signIn(user);
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("heading", { level: 1, name: congress.title })).toBeVisible();
  const recorded = page.waitForResponse(
    (res) => res.url().includes("/trpc/attendance.record") && res.status() === 200,
  );
  await page
    .getByRole("button", { name: /^Video abspielen/ })
    .first()
    .click();
  await expect(page.locator("iframe")).toHaveCount(1);
  await recorded;

  await page.goto("/");
  const card = congressCard(page, congress.title);
  const pdf = await download(page, () =>
    card.getByRole("button", { name: /^Teilnahmebestätigung \(PDF\)/ }).click(),
  );
  expect(pdf.name).toMatch(/^teilnahmebestaetigung-\d+\.pdf$/);
  expect(pdf.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.content.length).toBeGreaterThan(1000);
});
