import { berlinInstant, type IsoDate, isValidIsoDate, MAX_REPORT_ROWS, MSG_REPORT } from "@app/shared";
import { CsvError, parse } from "csv-parse/sync";
import { AppError } from "../../../lib/app-error";

/** One row of a participant report: who (as the tool knew them) and from when to when. */
export interface ReportRow {
  /** the line of the file (1 = first line) */
  line: number;
  name: string;
  /** lower case; empty when the tool had none (a guest) */
  email: string;
  from: Date;
  to: Date;
}

/**
 * The column names we read, compared after `normalise` (lower case, no accents, words only). Zoom's
 * participant reports in English and German, its webinar attendee report, and a plain table "E-Mail,
 * Beginn, Ende" typed by hand. The e-mail column is any name containing "email" ("User Email", "E-Mail des
 * Benutzers", "Benutzer-E-Mail", "E-Mail-Adresse"). Zoom's meeting summary above the participants ("Start
 * Time", "End Time" of the meeting) is not a header of ours, so "start time"/"end time" are not listed.
 */
const JOIN = new Set([
  "join time",
  "beitrittszeit",
  "zeitpunkt des beitritts",
  "beitritt",
  "beigetreten",
  "beginn",
  "start",
  "von",
]);
const LEAVE = new Set([
  "leave time",
  "zeitpunkt des verlassens",
  "verlassen",
  "austrittszeit",
  "ende",
  "bis",
]);
const NAME = /^(user )?name( original name| ursprunglicher name)?$|^teilnehmer( in)?$|^vollstandiger name$/;
const DURATION = /dauer|duration|time in session/;

export function normalise(header: string): string {
  return header
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

interface Columns {
  email: number;
  join: number;
  leave: number;
  name: number;
  /** the header as written, for messages */
  labels: string[];
}

function columnsOf(record: string[]): Columns | null {
  const names = record.map(normalise);
  const email = names.findIndex((n) => n.replace(/ /g, "").includes("email"));
  const join = names.findIndex((n) => JOIN.has(n));
  const leave = names.findIndex((n) => LEAVE.has(n));
  if (email < 0 || join < 0 || leave < 0) {
    return null;
  }
  return { email, join, leave, name: names.findIndex((n) => NAME.test(n)), labels: record };
}

/** `;`, `,` or tab: the one found most often outside quotes in the first lines. */
export function detectDelimiter(text: string): string {
  const head = text.split(/\r?\n/, 30).join("\n");
  let best = ",";
  let bestCount = 0;
  for (const candidate of [";", ",", "\t"]) {
    let count = 0;
    let quoted = false;
    for (const char of head) {
      if (char === '"') {
        quoted = !quoted;
      } else if (char === candidate && !quoted) {
        count += 1;
      }
    }
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

interface TimeParts {
  date: IsoDate;
  hour: string;
  minute: string;
  second: string | undefined;
  /** "A" or "P" for a 12-hour clock */
  half?: string | undefined;
}

const pad = (n: string | undefined) => (n ?? "").padStart(2, "0");

/** The forms a report's time may take, each with how its parts are read (`day`: a bare clock's day). */
const TIME_FORMATS: Array<[RegExp, (m: string[], day: IsoDate) => TimeParts]> = [
  [
    /^(\d{1,2})\.(\d{1,2})\.(\d{4})[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/,
    ([, d, m, y, hour = "", minute = "", second]) => ({
      date: `${y}-${pad(m)}-${pad(d)}`,
      hour,
      minute,
      second,
    }),
  ],
  [
    /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?$/,
    ([, m, d, y, hour = "", minute = "", second, half]) => ({
      date: `${y}-${pad(m)}-${pad(d)}`,
      hour,
      minute,
      second,
      half: half?.toUpperCase(),
    }),
  ],
  [
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/,
    ([, y, m, d, hour = "", minute = "", second]) => ({ date: `${y}-${m}-${d}`, hour, minute, second }),
  ],
  [
    /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/,
    ([, hour = "", minute = "", second], day) => ({ date: day, hour, minute, second }),
  ],
];

/**
 * A time of the report as Berlin wall-clock time: `27.11.2026 10:05[:30]`, Zoom's English
 * `11/27/2026 10:05:30 AM` (slashes are always month first, as Zoom writes them), `2026-11-27 10:05:30`,
 * or a bare `10:05` on the report's day. Null when it is none of these or no real date and time.
 */
export function parseReportTime(value: string, day: IsoDate): Date | null {
  let parts: TimeParts | undefined;
  for (const [pattern, read] of TIME_FORMATS) {
    const match = pattern.exec(value);
    if (match) {
      parts = read(
        [...match].map((part) => part ?? ""),
        day,
      );
      break;
    }
  }
  if (!parts) {
    return null;
  }
  let hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second || 0);
  if (parts.half) {
    if (hour < 1 || hour > 12) {
      return null;
    }
    hour = (hour % 12) + (parts.half === "P" ? 12 : 0);
  }
  if (!isValidIsoDate(parts.date) || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  return berlinInstant(parts.date, hour, minute, second);
}

const refuse = (detail: string) =>
  new AppError("BAD_REQUEST", `participant report refused: ${detail}`, detail, MSG_REPORT.invalidTitle);

function records(text: string): Array<{ line: number; cells: string[] }> {
  try {
    const parsed = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return parsed.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : 1;
      throw refuse(MSG_REPORT.unreadable(line, error.code));
    }
    throw error;
  }
}

/**
 * UTF-8 (what Zoom writes), else Windows-1252: what German Excel saves as "CSV (Trennzeichen-getrennt)",
 * so a report opened and saved again in Excel still reads with its umlauts.
 */
function decode(data: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return new TextDecoder("windows-1252").decode(data);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Reads a participant report (ADR 0107): finds the header (the first row naming an e-mail, a join and
 * a leave column; a later such row, e.g. the panelists' part of a Zoom webinar report, starts anew), and
 * returns each person row with its interval. Rows with neither e-mail nor times (section titles) are
 * skipped; any other row that cannot be read refuses the whole file, naming its line.
 */
export function parseReport(data: Buffer, day: IsoDate): ReportRow[] {
  const text = decode(data);
  const all = records(text);
  if (all.length === 0) {
    throw refuse(MSG_REPORT.empty);
  }
  let columns: Columns | null = null;
  const rows: ReportRow[] = [];
  const problems: string[] = [];
  for (const { line, cells } of all) {
    const header = columnsOf(cells);
    if (header) {
      columns = header;
      continue;
    }
    if (!columns) {
      continue;
    }
    const cell = (index: number) => (index >= 0 ? (cells[index] ?? "").trim() : "");
    const email = cell(columns.email).toLowerCase();
    const times = [cell(columns.join), cell(columns.leave)];
    if (email === "" && times.every((t) => t === "")) {
      continue;
    }
    const [from, to] = ([columns.join, columns.leave] as const).map((index, i) => {
      const value = times[i] ?? "";
      const label = columns?.labels[index] ?? "";
      if (value === "") {
        problems.push(MSG_REPORT.timeMissing(line, label));
        return null;
      }
      const at = parseReportTime(value, day);
      if (!at) {
        problems.push(MSG_REPORT.timeInvalid(line, label, value.slice(0, 40)));
      }
      return at;
    });
    if (!from || !to) {
      continue;
    }
    if (to < from) {
      problems.push(MSG_REPORT.leaveBeforeJoin(line));
      continue;
    }
    rows.push({ line, name: cell(columns.name), email: EMAIL.test(email) ? email : "", from, to });
    if (rows.length > MAX_REPORT_ROWS) {
      throw refuse(MSG_REPORT.tooManyRows);
    }
  }
  if (!columns) {
    const durationsOnly = all.some(({ cells }) => {
      const names = cells.map(normalise);
      return names.some((n) => n.replace(/ /g, "").includes("email")) && names.some((n) => DURATION.test(n));
    });
    throw refuse(durationsOnly ? MSG_REPORT.onlyDurations : MSG_REPORT.noHeader);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 3);
    const more =
      problems.length > shown.length ? [MSG_REPORT.moreProblems(problems.length - shown.length)] : [];
    throw refuse([...shown, ...more].join(" "));
  }
  return rows;
}
