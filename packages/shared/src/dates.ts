import { LOCALE, TIME_ZONE } from "./constants";

/** A calendar date as `YYYY-MM-DD`, the form PostgreSQL `date` columns use. */
export type IsoDate = string;

/**
 * An `Intl.DateTimeFormat` made on first use and kept. Making one loads locale and time-zone data (about
 * 25 ms each on a phone), which a page that only prints calendar dates (`YYYY-MM-DD` strings) never needs.
 */
function formatter(locale: string, options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => {
    made ??= new Intl.DateTimeFormat(locale, options);
    return made;
  };
}

const berlinDateParts = formatter("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

let kept: { minute: number; date: IsoDate } | undefined;

/**
 * The calendar date in Berlin at the given instant, by default now. The last one is kept for its minute:
 * Berlin's days start on a full minute of UTC (its offsets are whole hours), and formatting a date in a
 * time zone cost each first overview of a visitor more than reading its kept catalogue. The API passes its
 * clock's time (ADR 0099), so the cache is keyed by the instant's minute, not by the system time's.
 */
export function berlinDate(at?: Date): IsoDate {
  const ms = at ? at.getTime() : Date.now();
  const minute = Math.floor(ms / 60_000);
  if (kept?.minute !== minute) {
    kept = { minute, date: berlinDateParts().format(ms) };
  }
  return kept.date;
}

const berlinTimeParts = formatter("en-GB", {
  timeZone: TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** Seconds since midnight in Berlin at `at` (0-86399; a clock change shifts the hours after it). */
export function berlinSecondOfDay(at: Date): number {
  const [h = 0, m = 0, s = 0] = berlinTimeParts().format(at).split(":").map(Number);
  return h * 3600 + m * 60 + s;
}

/** Adds whole days to a calendar date (no time zone involved: date arithmetic in UTC). */
export function addDays(date: IsoDate, days: number): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface CongressTiming {
  inProgress: boolean;
  inFuture: boolean;
  inPast: boolean;
}

/** Timing flags of an event from its first and last day (null = one-day event), judged on Berlin's calendar. */
export function congressTiming(firstDay: IsoDate, lastDay: IsoDate | null, today: IsoDate): CongressTiming {
  const last = lastDay ?? firstDay;
  return {
    inFuture: today < firstDay,
    inPast: today > last,
    inProgress: today >= firstDay && today <= last,
  };
}

const germanDate = formatter(LOCALE, {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const germanDateTime = formatter(LOCALE, {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** `DD.MM.YYYY` for a calendar date or an instant (instants are shown in Berlin time). */
export function formatGermanDate(value: IsoDate | Date): string {
  if (typeof value === "string") {
    const [y, m, d] = value.split("-");
    return `${d}.${m}.${y}`;
  }
  return germanDate().format(value);
}

/** `DD.MM.YYYY, HH:MM` in Berlin time. */
export function formatGermanDateTime(value: Date): string {
  return germanDateTime().format(value);
}

/** `12.05.2023 – 14.05.2023`, or one date for a one-day event. */
export function formatCongressDates(firstDay: IsoDate, lastDay: IsoDate | null): string {
  return lastDay && lastDay !== firstDay
    ? `${formatGermanDate(firstDay)} – ${formatGermanDate(lastDay)}`
    : formatGermanDate(firstDay);
}
