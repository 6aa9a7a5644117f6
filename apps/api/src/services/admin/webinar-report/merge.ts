import { addDays, berlinInstant, type IsoDate } from "@app/shared";
import type { ReportRow } from "./parse";

/** Seconds since Berlin midnight of the day, `[start, end)`, as watch time stores a report's positions. */
export interface SecondsRange {
  start: number;
  end: number;
}

export interface PersonRows {
  email: string;
  name: string;
  lines: number[];
  ranges: SecondsRange[];
}

/**
 * The rows of each e-mail address as merged ranges of the day: every interval clipped to the day (Berlin
 * midnight to the next; elapsed seconds, so a clock-change day has 23 or 25 hours), rounded to whole
 * seconds, overlapping and touching ones joined, earliest first. A person whose rows all lie outside the
 * day gets no ranges. Rows without an e-mail address are left out (nobody to credit).
 */
export function mergeByPerson(rows: ReportRow[], day: IsoDate): PersonRows[] {
  const midnight = berlinInstant(day).getTime();
  const length = Math.round((berlinInstant(addDays(day, 1)).getTime() - midnight) / 1000);
  const people = new Map<string, PersonRows>();
  for (const row of rows) {
    if (row.email === "") {
      continue;
    }
    let person = people.get(row.email);
    if (!person) {
      person = { email: row.email, name: row.name, lines: [], ranges: [] };
      people.set(row.email, person);
    }
    person.lines.push(row.line);
    const start = Math.max(0, Math.round((row.from.getTime() - midnight) / 1000));
    const end = Math.min(length, Math.round((row.to.getTime() - midnight) / 1000));
    if (end > start) {
      person.ranges.push({ start, end });
    }
  }
  return [...people.values()].map((person) => ({ ...person, ranges: mergeRanges(person.ranges) }));
}

/** Joins overlapping and touching ranges (as PostgreSQL's multirange union does), earliest first. */
export function mergeRanges(ranges: SecondsRange[]): SecondsRange[] {
  const merged: SecondsRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) {
      last.end = Math.max(last.end, range.end);
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

export const rangesSeconds = (ranges: SecondsRange[]) => ranges.reduce((sum, r) => sum + r.end - r.start, 0);
