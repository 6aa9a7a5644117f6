import { addDays, type IsoDate, TIME_ZONE } from "@app/shared";

/**
 * A minimal RFC 5545 writer for our one need (an event's days as a calendar file). Written by hand
 * instead of a library: ical-generator 11 declares Node 22 and needs a second package for time zones,
 * and the rules that matter here are few: CRLF line ends, lines folded at 75 octets, TEXT escaping,
 * a UID and DTSTAMP per VEVENT, and a VTIMEZONE for every TZID used.
 */

export interface CalendarDay {
  /** unique and stable across downloads, so calendars update instead of duplicating */
  uid: string;
  day: IsoDate;
  summary: string;
  description: string;
  url: string | null;
  location: string | null;
}

export interface CalendarOptions {
  name: string;
  /** "HH:MM" in Berlin: timed events of `durationMinutes`; null: all-day events */
  startTime: string | null;
  durationMinutes: number;
  /** DTSTAMP: when the file is made (the clock's time) */
  now: Date;
}

/** Europe/Berlin since 1996 (EU rules): the last Sunday of March and of October. */
const BERLIN_TIMEZONE = [
  "BEGIN:VTIMEZONE",
  `TZID:${TIME_ZONE}`,
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

/** TEXT values: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();

/** Folds a content line into chunks of at most 75 octets, never inside a UTF-8 character (RFC 5545 3.1). */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // continuation lines start with a space, which counts towards their 75 octets
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

const compactDate = (day: IsoDate) => day.replace(/-/g, "");

/** 20261123T150405Z */
const utcStamp = (at: Date) => `${at.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;

function addMinutes(day: IsoDate, time: string, minutes: number): { day: IsoDate; time: string } {
  const [h = 0, m = 0] = time.split(":").map(Number);
  const total = h * 60 + m + minutes;
  const hh = Math.floor((total % 1440) / 60);
  const mm = total % 60;
  return {
    day: addDays(day, Math.floor(total / 1440)),
    time: `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`,
  };
}

const localStamp = (day: IsoDate, time: string) => `${compactDate(day)}T${time.replace(":", "")}00`;

function veventLines(entry: CalendarDay, options: CalendarOptions, stamp: string): string[] {
  const lines = ["BEGIN:VEVENT", `UID:${entry.uid}`, `DTSTAMP:${stamp}`];
  if (options.startTime) {
    const end = addMinutes(entry.day, options.startTime, options.durationMinutes);
    lines.push(
      `DTSTART;TZID=${TIME_ZONE}:${localStamp(entry.day, options.startTime)}`,
      `DTEND;TZID=${TIME_ZONE}:${localStamp(end.day, end.time)}`,
    );
  } else {
    // all-day: DTEND is exclusive, the next day
    lines.push(
      `DTSTART;VALUE=DATE:${compactDate(entry.day)}`,
      `DTEND;VALUE=DATE:${compactDate(addDays(entry.day, 1))}`,
    );
  }
  lines.push(`SUMMARY:${escapeText(entry.summary)}`);
  if (entry.description) {
    lines.push(`DESCRIPTION:${escapeText(entry.description)}`);
  }
  if (entry.location) {
    lines.push(`LOCATION:${escapeText(entry.location)}`);
  }
  if (entry.url) {
    // URI values are not TEXT: no escaping
    lines.push(`URL:${entry.url}`);
  }
  lines.push("TRANSP:OPAQUE", "END:VEVENT");
  return lines;
}

/** The whole VCALENDAR as a string with CRLF line ends. */
export function buildCalendar(days: CalendarDay[], options: CalendarOptions): string {
  const stamp = utcStamp(options.now);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Kongress-Plattform//Veranstaltungskalender//DE",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options.name)}`,
    `X-WR-TIMEZONE:${TIME_ZONE}`,
    ...(options.startTime ? BERLIN_TIMEZONE : []),
    ...days.flatMap((entry) => veventLines(entry, options, stamp)),
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
