import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { openAdminSection } from "./admin-nav";
import { DEMO, dayFromToday, openOverview, type SignIn, test } from "./fixtures";

const HEADER = [
  "Vorname",
  "Nachname",
  "E-Mail",
  "Angemeldet am",
  "Ticket-Bestellnummer",
  "Ticket-Status",
  "Anwesende Tage",
  "Anwesend am",
];

/** RFC 4180 with `;`: quoted fields may hold separators, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ";") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else {
      field += c;
    }
  }
  return rows;
}

async function openCongresses({ page, signIn }: { page: Page; signIn: SignIn }) {
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, "Veranstaltungen");
}

/**
 * Holds each export's answer back until the returned function is called (once per export), so the
 * busy state is seen however fast the server and the machine are.
 */
async function holdExports(page: Page): Promise<() => void> {
  const waiting: (() => void)[] = [];
  const held: Promise<void>[] = [];
  const gate = () => held.push(new Promise<void>((done) => waiting.push(done)));
  gate();
  await page.route("**/api/admin/exports/**", async (route) => {
    const mine = held.shift();
    gate();
    await mine;
    await route.continue();
  });
  return () => waiting.shift()?.();
}

test("an admin downloads the participants of an event as CSV and as Excel and opens both", async ({
  page,
  data,
  signIn,
}) => {
  const participant = await data.user();
  const congress = await data.runningCongress(participant.id, {
    title: data.title("Online-Kongress Beziehung & Bindung"),
    visible: false,
  });
  const EVENT = congress.title;
  const { ticket } = congress;
  await openCongresses({ page, signIn });
  const releaseExports = await holdExports(page);

  const csvButton = page.getByRole("button", { name: `Teilnehmende von ${EVENT} als CSV herunterladen` });
  const csvDownload = page.waitForEvent("download");
  await csvButton.click();
  await expect(csvButton).toHaveText("CSV wird erstellt …");
  await expect(
    page.getByRole("button", { name: `Teilnehmende von ${EVENT} als Excel herunterladen` }),
  ).toBeDisabled();
  releaseExports();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(
    /^teilnehmende-online-kongress-beziehung-bindung-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  await expect(csvButton).toHaveText("CSV");

  const bytes = await readFile(await csv.path());
  // UTF-8 with BOM, so German Excel reads the umlauts right
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.toString("utf8").slice(1));
  expect(rows[0]).toEqual(HEADER);
  const row = rows.find((r) => r[2] === participant.email);
  expect(row?.slice(4, 6)).toEqual([ticket, "bezahlt"]);
  expect(row?.[3]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  expect(rows.every((r) => r.length === HEADER.length)).toBe(true);

  const excelButton = page.getByRole("button", { name: `Teilnehmende von ${EVENT} als Excel herunterladen` });
  const xlsxDownload = page.waitForEvent("download");
  await excelButton.click();
  await expect(excelButton).toHaveText("Excel wird erstellt …");
  await expect(csvButton).toBeDisabled();
  releaseExports();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toMatch(
    /^teilnehmende-online-kongress-beziehung-bindung-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.xlsx$/,
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await xlsx.path())) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet("Teilnehmende");
  if (!sheet) {
    throw new Error("no sheet Teilnehmende");
  }
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
  const emails: unknown[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) {
      emails.push(row.getCell(3).value);
    }
  });
  expect(emails).toContain(participant.email);
  expect(sheet.rowCount).toBe(rows.length);
});

test("an admin exports the package orders filtered like the table", async ({ page, data, signIn }) => {
  const buyer = await data.user();
  const pkg = await data.package((await data.congress({ visible: false, firstDay: dayFromToday(-60) })).id);
  const order = await data.packageOrder(buyer.id, pkg.id);
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, "Paketbestellungen");
  await page.getByLabel("Nach E-Mail oder Bestellnummer suchen").fill(order.toLowerCase());
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Paketbestellungen als CSV herunterladen" }).click();
  const rows = parseCsv((await readFile(await (await download).path())).toString("utf8").slice(1));
  expect(rows.map((r) => r[0])).toEqual(["Bestellnummer", order]);
  expect(rows[1]?.[3]).toBe(buyer.email);
});
