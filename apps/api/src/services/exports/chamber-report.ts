import { schema } from "@app/db";
import {
  CHAMBER_REPORT_SHEETS,
  type ChamberReportList,
  formatGermanDate,
  type IsoDate,
  MSG_CHAMBER_REPORT,
  MSG_LEARNING_CHECK,
} from "@app/shared";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { certifiedOnDay, certifiedPasses, type ReportedCertificate } from "../certificates/reported";
import type { ServiceDeps } from "../deps";
import { eventDays } from "../fortbildung/admin";
import { loadFortbildungEvent } from "../fortbildung/facts";
import { EXPORT_BATCH_SIZE, type NamedExport, slug } from "./sources";
import type { Column, ExportFormat, Sheet } from "./table-file";

/** A line of the report: one valid certificate (the day certified, or a recording's day of passing). */
type ChamberRow = ReportedCertificate;

/**
 * Columns of the report (ADR 0113). The EFN and the VNR are text: digits only, never a number (a
 * spreadsheet would round a 19-digit VNR); the date is `DD.MM.YYYY` as in the other exports.
 */
const vnr: Column<ChamberRow> = { header: "VNR", width: 22, value: (r) => r.vnr ?? "" };
const names: Column<ChamberRow>[] = [
  { header: "Nachname", width: 24, value: (r) => r.lastname },
  { header: "Vorname", width: 20, value: (r) => r.firstname },
];
const dayAndPoints: Column<ChamberRow>[] = [
  { header: "Datum", width: 12, value: (r) => formatGermanDate(r.day) },
  { header: "Punkte", width: 8, value: (r) => r.points },
];
const COLUMNS: Record<ChamberReportList, Column<ChamberRow>[]> = {
  "mit-efn": [vnr, { header: "EFN", width: 18, value: (r) => r.efn ?? "" }, ...names, ...dayAndPoints],
  // whom the organiser may still ask for their number: with the e-mail address, without an EFN column
  "ohne-efn": [vnr, ...names, { header: "E-Mail", width: 32, value: (r) => r.email }, ...dayAndPoints],
};

const german = new Intl.Collator("de-DE", { sensitivity: "base" });

async function* inBatches(rows: ChamberRow[]): AsyncGenerator<ChamberRow[]> {
  for (let i = 0; i < rows.length; i += EXPORT_BATCH_SIZE) {
    yield rows.slice(i, i + EXPORT_BATCH_SIZE);
  }
}

const sheetOf = (list: ChamberReportList, rows: ChamberRow[]): Sheet<ChamberRow> => ({
  sheetName: CHAMBER_REPORT_SHEETS[list],
  columns: COLUMNS[list],
  batches: inBatches(rows.filter((r) => (list === "mit-efn") === (r.efn !== null))),
});

const byName = (x: ChamberRow, y: ChamberRow) =>
  german.compare(x.lastname, y.lastname) || german.compare(x.firstname, y.firstname);

/** The file: as CSV the list asked for (with EFN, or without); as XLSX both, one sheet each. */
function reportFile(
  rows: ChamberRow[],
  input: { list: ChamberReportList; name: string },
  format: ExportFormat,
): NamedExport<ChamberRow> {
  const first: ChamberReportList = format === "xlsx" ? "mit-efn" : input.list;
  const base = `${first === "mit-efn" ? "kammermeldung" : "ohne-efn"}-${input.name}`;
  return {
    ...sheetOf(first, rows),
    ...(format === "xlsx" && { moreSheets: [sheetOf("ohne-efn", rows)] }),
    fileName: `${base}.${format}`,
  };
}

/**
 * The chamber's report of one event day (ADR 0113): the event's valid certificates that name the day
 * (`certifiedOnDay`), with VNR, EFN and the day's points as certified; refused before the certificates
 * exist (after the last day, with an issuer named).
 */
export async function chamberReport(
  deps: Pick<ServiceDeps, "db" | "env" | "clock">,
  input: { congressId: number; day: string; list: ChamberReportList },
  format: ExportFormat,
): Promise<NamedExport<ChamberRow>> {
  const event = await loadFortbildungEvent(deps.db, input.congressId);
  const day = input.day as IsoDate;
  if (!eventDays(event).includes(day)) {
    throw new AppError("BAD_REQUEST", `day ${day} of congress ${event.id}`, MSG_CHAMBER_REPORT.notADay);
  }
  // in the order of a German list ("Ąbel" before "Brandt"), not the database's byte order
  const rows = (await certifiedOnDay(deps, event, day)).sort(byName);
  return reportFile(rows, { list: input.list, name: `${slug(event.title)}-${day}` }, format);
}

/**
 * The chamber's report of a learning check (a recording is a measure of its own, with its own VNR): its
 * valid certificates, each with the date of passing and the points as certified, oldest pass first (an
 * organiser reports the new ones at the end).
 */
export async function recordingChamberReport(
  deps: Pick<ServiceDeps, "db" | "env" | "clock">,
  input: { learningCheckId: number; list: ChamberReportList },
  format: ExportFormat,
): Promise<NamedExport<ChamberRow>> {
  const { learningChecks, congressPackages } = schema;
  const [check] = await deps.db
    .select({ packageName: congressPackages.name, day: learningChecks.day })
    .from(learningChecks)
    .innerJoin(congressPackages, eq(congressPackages.id, learningChecks.packageId))
    .where(eq(learningChecks.id, input.learningCheckId));
  if (!check) {
    throw new AppError("NOT_FOUND", `learning check ${input.learningCheckId}`, MSG_LEARNING_CHECK.notFound);
  }
  const rows = (await certifiedPasses(deps, input.learningCheckId)).sort(
    (x, y) => x.day.localeCompare(y.day) || byName(x, y),
  );
  const name = `${slug(check.packageName)}${check.day ? `-${check.day}` : ""}`;
  return reportFile(rows, { list: input.list, name: `lernerfolgskontrolle-${name}` }, format);
}
