import { schema } from "@app/db";
import {
  CHAMBER_REPORT_SHEETS,
  type ChamberReportList,
  formatGermanDate,
  type IsoDate,
  MSG_CHAMBER_REPORT,
} from "@app/shared";
import { inArray } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { ServiceDeps } from "../deps";
import { eventDays } from "../fortbildung/admin";
import { loadFortbildungEvent, participantDays } from "../fortbildung/facts";
import { EXPORT_BATCH_SIZE, type NamedExport, slug } from "./sources";
import type { Column, ExportFormat, Sheet } from "./table-file";

/** A participant who reached the day's rule, as the chamber's report lists them. */
interface ChamberRow {
  vnr: string | null;
  efn: string | null;
  lastname: string;
  firstname: string;
  email: string;
  day: IsoDate;
  points: number;
}

/**
 * Columns of the report (decision 113). The EFN and the VNR are text: digits only, never a number (a
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

const byName = new Intl.Collator("de-DE", { sensitivity: "base" });

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

/**
 * The chamber's report of one event day (issue 34 item 6): every participant who reached the day's rule by
 * Fortbildung I's facts (the same rows as the section's day list), with the EFN they hold now. As CSV the
 * list asked for (with EFN, or without); as XLSX both, one sheet each.
 */
export async function chamberReport(
  { db }: Pick<ServiceDeps, "db">,
  input: { congressId: number; day: string; list: ChamberReportList },
  format: ExportFormat,
): Promise<NamedExport<ChamberRow>> {
  const event = await loadFortbildungEvent(db, input.congressId);
  const day = input.day as IsoDate;
  if (!eventDays(event).includes(day)) {
    throw new AppError("BAD_REQUEST", `day ${day} of congress ${event.id}`, MSG_CHAMBER_REPORT.notADay);
  }
  const reached = (await participantDays(db, event, { day })).filter((d) => d.outcome.reached);
  const { users } = schema;
  const efns = new Map(
    reached.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, efn: users.efn })
            .from(users)
            .where(
              inArray(
                users.id,
                reached.map((d) => d.userId),
              ),
            )
        ).map((u) => [u.id, u.efn]),
  );
  const rows: ChamberRow[] = reached
    .map((d) => ({
      vnr: event.vnr,
      efn: efns.get(d.userId) ?? null,
      lastname: d.lastname,
      firstname: d.firstname,
      email: d.email,
      day,
      points: d.outcome.points,
    }))
    // in the order of a German list ("Ąbel" before "Brandt"), not the database's byte order
    .sort((x, y) => byName.compare(x.lastname, y.lastname) || byName.compare(x.firstname, y.firstname));
  const first: ChamberReportList = format === "xlsx" ? "mit-efn" : input.list;
  const base = `${first === "mit-efn" ? "kammermeldung" : "ohne-efn"}-${slug(event.title)}-${day}`;
  return {
    ...sheetOf(first, rows),
    ...(format === "xlsx" && { moreSheets: [sheetOf("ohne-efn", rows)] }),
    fileName: `${base}.${format}`,
  };
}
