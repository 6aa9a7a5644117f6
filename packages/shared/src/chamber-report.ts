import { z } from "zod";
import "./zod-locale";
import { formatGermanDate, type IsoDate } from "./dates";
import { MSG_FIELD, zForm } from "./field-text";

/**
 * The chamber's report (ADR 0113): per event and day, whom the organiser certified that day (the valid
 * certificates), and per learning check of a recording, who passed it and when; with VNR, EFN, name, date
 * and points, those without an EFN in a list of their own. The EIV's own upload format could not be
 * verified in public sources, so this is our documented CSV (and an XLSX workbook).
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
  notYetTitle: "Noch keine Meldung an die Kammer",
  /** `from`: the day after the event's last day (DD.MM.YYYY) */
  beforeEnd: (from: string) =>
    `Die Meldung an die Kammer entsteht aus den Teilnahmebescheinigungen. Sie werden nach dem letzten Tag der Veranstaltung ausgestellt, ab dem ${from}.`,
  noIssuer:
    "Die Meldung an die Kammer entsteht aus den Teilnahmebescheinigungen. Bitte legen Sie zuerst im Bereich „Bescheinigungen“ den Aussteller fest; danach werden sie ausgestellt.",
} as const;

/**
 * Whether an event's chamber report can be made (ADR 0116): it lists the valid certificates, which
 * exist once the event's last day is over and an issuer is named. The section shows why not, the export
 * refuses with the same words.
 */
export type ChamberReportState =
  | { status: "ready" }
  | { status: "before-end"; from: IsoDate }
  | { status: "no-issuer" };

/** The German reason a report cannot be made yet (null when it can). */
export function chamberReportHint(state: ChamberReportState): string | null {
  switch (state.status) {
    case "ready":
      return null;
    case "before-end":
      return MSG_CHAMBER_REPORT.beforeEnd(formatGermanDate(state.from));
    case "no-issuer":
      return MSG_CHAMBER_REPORT.noIssuer;
  }
}

const list = z.enum(CHAMBER_REPORT_LISTS, { error: MSG_CHAMBER_REPORT.list }).default("mit-efn");

/** The report's query: the day (required) and, for CSV, which of the two lists. */
export const ZChamberReportQuery = zForm({
  day: z.string({ error: MSG_CHAMBER_REPORT.day }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG_FIELD.date),
  list,
});

/** A learning check's report (its passes, each with the date of passing): for CSV, which of the two lists. */
export const ZRecordingReportQuery = zForm({ list });
