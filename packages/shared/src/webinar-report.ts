import { z } from "zod";
import { TIME_ZONE } from "./constants";
import { addDays, type IsoDate } from "./dates";
import { MSG_ID_INVALID, zId } from "./ids";

/**
 * Webinar participant reports (ADR 0107): an admin uploads the participant report of
 * an outside webinar tool (Zoom's CSV, German or English, or a plain "E-Mail, Beginn, Ende" table) for one
 * day of an event; the preview shows whom it credits, applying stores the intervals as watch time of the
 * source `report`.
 */

/** The largest report accepted (a Zoom report of 10,000 joins is about 1.5 MB). */
export const MAX_REPORT_BYTES = 5 * 1024 * 1024;
/** Data rows read at most; more is refused rather than cut. */
export const MAX_REPORT_ROWS = 50_000;
/** The form fields of `admin.webinarReports.preview` and `.import`. */
export const REPORT_UPLOAD_FIELDS = { file: "file", congressId: "congressId", day: "day" } as const;
/** The `video_key` of watch time imported from a report: one per event and day, whatever the tool. */
export const REPORT_VIDEO_KEY = "webinar";

export const MSG_REPORT = {
  fileInvalid: "Bitte wählen Sie einen Teilnehmerbericht als CSV-Datei (höchstens 5 MB).",
  fileTooLarge: "Der Teilnehmerbericht ist größer als 5 MB. Bitte teilen Sie ihn auf.",
  fileType: "Bitte wählen Sie eine CSV-Datei (Endung .csv).",
  dayInvalid: "Bitte wählen Sie den Tag der Veranstaltung, zu dem der Bericht gehört.",
  dayNotOfCongress: "Der gewählte Tag gehört nicht zu dieser Veranstaltung.",
  congressMissing: "Die Veranstaltung wurde nicht gefunden.",
  empty: "Die Datei enthält keine Zeilen.",
  unreadable: (line: number, why: string) => `Zeile ${line}: Die Datei ist keine lesbare CSV-Datei (${why}).`,
  noHeader:
    "Keine Kopfzeile gefunden. Erwartet werden die Spalten eines Zoom-Teilnehmerberichts (z. B. „E-Mail des Benutzers“, „Beitrittszeit“, „Zeitpunkt des Verlassens“ oder „User Email“, „Join Time“, „Leave Time“) oder „E-Mail“, „Beginn“, „Ende“.",
  onlyDurations:
    "Der Bericht enthält nur Gesamtdauern, keine Beitritts- und Austrittszeiten. Bitte exportieren Sie ihn in Zoom ohne „Eindeutige Benutzer anzeigen“.",
  tooManyRows: `Der Bericht hat mehr als ${MAX_REPORT_ROWS.toLocaleString("de-DE")} Zeilen. Bitte teilen Sie ihn auf.`,
  timeMissing: (line: number, column: string) => `Zeile ${line}: Die Spalte „${column}“ ist leer.`,
  timeInvalid: (line: number, column: string, value: string) =>
    `Zeile ${line}: „${value}“ in der Spalte „${column}“ ist keine Zeitangabe (erwartet: TT.MM.JJJJ HH:MM, MM/DD/YYYY hh:mm:ss AM/PM oder HH:MM).`,
  leaveBeforeJoin: (line: number) => `Zeile ${line}: Das Verlassen liegt vor dem Beitritt.`,
  moreProblems: (n: number) => `… und ${n} weitere fehlerhafte Zeilen.`,
  invalidTitle: "Teilnehmerbericht nicht lesbar",
  nothingChanged: "Der Bericht war bereits übernommen; es wurde nichts geändert.",
  applied: (people: number, minutes: number) =>
    `Der Teilnehmerbericht wurde übernommen: ${people} ${people === 1 ? "Person" : "Personen"}, ${minutes} Minuten neu angerechnet.`,
} as const;

/** Whether `value` is a real calendar date `YYYY-MM-DD`. */
export function isValidIsoDate(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    addDays(value, 0) === value
  );
}

let offsetFormat: Intl.DateTimeFormat | undefined;

/** Berlin's offset from UTC at an instant, in minutes (60 or 120). */
function berlinOffsetMinutes(ms: number): number {
  offsetFormat ??= new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, timeZoneName: "longOffset" });
  const name = offsetFormat.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/**
 * The instant of a Berlin wall-clock time (a time that the spring clock change skips is read with the
 * winter offset; one that the autumn change repeats, the second time).
 */
export function berlinInstant(day: IsoDate, hour = 0, minute = 0, second = 0): Date {
  const [y = 0, m = 1, d = 1] = day.split("-").map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hour, minute, second);
  const guess = asUtc - berlinOffsetMinutes(asUtc) * 60_000;
  return new Date(asUtc - berlinOffsetMinutes(guess) * 60_000);
}

/** The days of an event, first to last. */
export function eventDays(firstDay: IsoDate, lastDay: IsoDate | null): IsoDate[] {
  const days = [firstDay];
  while (lastDay && days.length < 366 && (days.at(-1) ?? lastDay) < lastDay) {
    days.push(addDays(days.at(-1) ?? lastDay, 1));
  }
  return days;
}

/** Why a row of the report credits nobody. */
export const UNMATCHED_REASONS = {
  unknown: "Kein Konto mit dieser E-Mail-Adresse",
  noEmail: "Ohne E-Mail-Adresse (Gast)",
  outsideDay: "Nicht am gewählten Tag",
} as const;
export type UnmatchedReason = keyof typeof UNMATCHED_REASONS;

/** The upload: the report, the event and the Berlin day it belongs to. */
export const ZWebinarReportUpload = z
  .instanceof(FormData, { error: MSG_REPORT.fileInvalid })
  .transform((form, ctx): { file: Blob; fileName: string; congressId: number; day: IsoDate } => {
    const file = form.get(REPORT_UPLOAD_FIELDS.file);
    if (typeof file === "string" || file === null || file.size === 0) {
      ctx.addIssue({ code: "custom", message: MSG_REPORT.fileInvalid, path: [REPORT_UPLOAD_FIELDS.file] });
      return z.NEVER;
    }
    if (file.size > MAX_REPORT_BYTES) {
      ctx.addIssue({ code: "custom", message: MSG_REPORT.fileTooLarge, path: [REPORT_UPLOAD_FIELDS.file] });
      return z.NEVER;
    }
    const congressId = zId(MSG_ID_INVALID).safeParse(form.get(REPORT_UPLOAD_FIELDS.congressId));
    if (!congressId.success) {
      ctx.addIssue({ code: "custom", message: MSG_ID_INVALID, path: [REPORT_UPLOAD_FIELDS.congressId] });
      return z.NEVER;
    }
    const day = form.get(REPORT_UPLOAD_FIELDS.day);
    if (typeof day !== "string" || !isValidIsoDate(day)) {
      ctx.addIssue({ code: "custom", message: MSG_REPORT.dayInvalid, path: [REPORT_UPLOAD_FIELDS.day] });
      return z.NEVER;
    }
    const fileName = file instanceof File ? file.name : "";
    return { file, fileName, congressId: congressId.data, day };
  });

/** What a browser may send: checked before a byte goes up (the server checks again). */
export function reportFileProblem(file: { name: string; size: number }): string | null {
  if (file.size === 0) {
    return MSG_REPORT.fileInvalid;
  }
  if (!/\.(csv|txt)$/i.test(file.name)) {
    return MSG_REPORT.fileType;
  }
  return file.size > MAX_REPORT_BYTES ? MSG_REPORT.fileTooLarge : null;
}

/** One stretch of presence, as instants (shown as Berlin clock times). */
export interface ReportInterval {
  from: Date;
  to: Date;
}

export interface ReportPerson {
  userId: number;
  email: string;
  /** the account's name */
  name: string;
  /** the name the tool showed (first row of the person) */
  reportName: string;
  /** the person has signed up for the event (participation) */
  registered: boolean;
  /** rows of the report that are this person's */
  rows: number;
  /** the person's stretches within the day, overlaps merged, earliest first */
  intervals: ReportInterval[];
  /** whole minutes of the merged stretches */
  minutes: number;
  /** minutes applying would add to what reports credited before (0: already imported) */
  newMinutes: number;
}

export interface ReportUnmatched {
  /** the line of the file (1 = first line) */
  line: number;
  name: string;
  email: string;
  reason: UnmatchedReason;
}

export interface ReportPreview {
  congressId: number;
  day: IsoDate;
  /** data rows read */
  rows: number;
  people: ReportPerson[];
  unmatched: ReportUnmatched[];
}

export interface ReportApplied {
  /** accounts whose watch time changed */
  people: number;
  /** minutes added over all of them */
  minutes: number;
}
