import { formatGermanDate, MSG_REPORT } from "@app/shared";
import { expect, type Page } from "@playwright/test";
import { openAdminSection } from "./admin-nav";
import { failedRequest } from "./browser-errors";
import { DEMO, dayFromToday, openOverview, test } from "./fixtures";

/** Zoom's German participant report (BOM, semicolons) of today's webinar: `email` joined three times. */
function zoomReport(email: string, day: string, broken = false): Buffer {
  const d = formatGermanDate(day);
  const rows = [
    "Name (ursprünglicher Name);E-Mail des Benutzers;Beitrittszeit;Zeitpunkt des Verlassens;Dauer (Minuten);Gast",
    `"Adler, Anna";${email.toUpperCase()};${d} 09:00:05;${d} 09:45:10;46;Nein`,
    `Anna (Tablet);${email};${broken ? "gestern" : `${d} 09:40:00`};${d} 10:30:00;50;Nein`,
    `iPhone von Gast;;${d} 09:10:00;${d} 09:50:00;40;Ja`,
    `Anna Adler;${email};${d} 11:00;${d} 11:30;30;Nein`,
    `Niemand Bekannt;niemand.e2e@example.com;${d} 09:00:00;${d} 10:00:00;60;Nein`,
  ];
  return Buffer.from(`\uFEFF${rows.join("\r\n")}\r\n`, "utf8");
}

async function openReportDialog(page: Page, title: string) {
  await page.getByRole("button", { name: `Teilnehmerbericht für ${title} importieren` }).click();
  const dialog = page.getByRole("dialog", { name: "Teilnehmerbericht importieren" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("an admin previews a Zoom report, takes it over, and the same report again changes nothing", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  const anna = await data.user({ firstname: "Anna", lastname: "Adler" });
  const today = dayFromToday(0);
  const congress = await data.congress({
    title: data.title("Webinar Traumatherapie"),
    visible: false,
    webinar: true,
    fortbildung: true,
    webinarMinutes: 120,
    firstDay: dayFromToday(-1),
    lastDay: dayFromToday(1),
  });
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, "Fortbildung");
  await page.goto(`/admin/manage/fortbildung?congress=${congress.id}`);

  // a broken row: the file is refused naming the row, nothing is shown to take over
  let dialog = await openReportDialog(page, congress.title);
  await dialog.getByLabel("Tag").selectOption(today);
  await dialog
    .getByLabel("CSV-Datei")
    .setInputFiles({ name: "zoom.csv", mimeType: "text/csv", buffer: zoomReport(anna.email, today, true) });
  browserErrors.expect(failedRequest(400, "/trpc/admin.webinarReports.preview"));
  await dialog.getByRole("button", { name: "Vorschau anzeigen" }).click();
  const refusal = page.getByRole("alertdialog");
  await expect(refusal).toContainText(MSG_REPORT.invalidTitle);
  await expect(refusal).toContainText("Zeile 3: „gestern“ in der Spalte „Beitrittszeit“");
  await refusal.getByRole("button", { name: "OK" }).click();
  await expect(dialog.getByRole("button", { name: "Übernehmen" })).toBeDisabled();

  // the real report: Anna's three joins merged, the guest and the unknown address listed
  await dialog
    .getByLabel("CSV-Datei")
    .setInputFiles({ name: "zoom.csv", mimeType: "text/csv", buffer: zoomReport(anna.email, today) });
  await dialog.getByRole("button", { name: "Vorschau anzeigen" }).click();
  const matched = dialog.getByRole("table", { name: "Erkannte Konten" });
  const annaRow = matched.getByRole("row").filter({ hasText: anna.email });
  await expect(annaRow).toContainText("Anna Adler");
  await expect(annaRow).toContainText("nicht angemeldet");
  await expect(annaRow).toContainText("09:00–10:30, 11:00–11:30");
  await expect(annaRow).toContainText("3 Zeilen zusammengeführt");
  await expect(annaRow.getByRole("cell").nth(3)).toHaveText("119");
  const unmatched = dialog.getByRole("table", { name: "Zeilen ohne Konto" });
  await expect(unmatched.getByRole("row").filter({ hasText: "iPhone von Gast" })).toContainText(
    "Ohne E-Mail-Adresse (Gast)",
  );
  await expect(unmatched.getByRole("row").filter({ hasText: "niemand.e2e@example.com" })).toContainText(
    "Kein Konto mit dieser E-Mail-Adresse",
  );

  await dialog.getByRole("button", { name: "Übernehmen" }).click();
  const question = page.getByRole("alertdialog", { name: "Teilnehmerbericht übernehmen?" });
  await expect(question).toContainText("1 Person erhält");
  await question.getByRole("button", { name: "Übernehmen" }).click();
  await expect(page.getByText(MSG_REPORT.applied(1, 119))).toBeVisible();
  await expect(dialog).toBeHidden();
  // the section's list of the day credits Anna with the report's minutes
  await page.getByLabel("Tag").selectOption(today);
  const row = page
    .getByRole("table", { name: "Fortbildung" })
    .getByRole("row")
    .filter({ hasText: anna.email });
  await expect(row).toContainText("119 von 120");
  await expect(row).toContainText("Teilnehmerbericht");
  // the same report again: stored already, nothing new
  dialog = await openReportDialog(page, congress.title);
  await dialog.getByLabel("Tag").selectOption(today);
  await dialog
    .getByLabel("CSV-Datei")
    .setInputFiles({ name: "zoom.csv", mimeType: "text/csv", buffer: zoomReport(anna.email, today) });
  await dialog.getByRole("button", { name: "Vorschau anzeigen" }).click();
  await expect(dialog.getByRole("table", { name: "Erkannte Konten" })).toContainText("bereits übernommen");
});
