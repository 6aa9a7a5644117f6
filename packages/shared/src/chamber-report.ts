import { z } from "zod";
import "./zod-locale";
import { MSG_FIELD, zForm } from "./field-text";

/**
 * The chamber's report (issue 34 item 6, decision 113): per event and day, who reached the day's rule,
 * with VNR, EFN, name, date and points; those without an EFN in a list of their own. The EIV's own upload
 * format could not be verified in public sources, so this is our documented CSV (and an XLSX workbook).
 */

/** "mit-efn": the rows to report (the default); "ohne-efn": who reached the day but gave no EFN */
export const CHAMBER_REPORT_LISTS = ["mit-efn", "ohne-efn"] as const;
export type ChamberReportList = (typeof CHAMBER_REPORT_LISTS)[number];

export const CHAMBER_REPORT_SHEETS: Record<ChamberReportList, string> = {
  "mit-efn": "Meldung an die Kammer",
  "ohne-efn": "Ohne EFN",
};

export const MSG_CHAMBER_REPORT = {
  day: "Bitte wählen Sie einen Tag der Veranstaltung für die Meldung an die Kammer.",
  notADay: "Diesen Tag hat die Veranstaltung nicht. Bitte wählen Sie einen ihrer Tage.",
  list: "Bitte wählen Sie die Liste mit oder ohne EFN.",
} as const;

/** The report's query: the day (required) and, for CSV, which of the two lists. */
export const ZChamberReportQuery = zForm({
  day: z.string({ error: MSG_CHAMBER_REPORT.day }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG_FIELD.date),
  list: z.enum(CHAMBER_REPORT_LISTS, { error: MSG_CHAMBER_REPORT.list }).default("mit-efn"),
});
