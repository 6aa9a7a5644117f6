import { OVERVIEW_MAX_CONGRESSES } from "./constants";
import type { IsoDate } from "./dates";

interface Candidate {
  id: number;
  firstDay: IsoDate;
}

/** Newest first by first day (ADR 0084); the later created first on the same day. */
export const newestFirst = (a: Candidate, b: Candidate): number =>
  a.firstDay < b.firstDay ? 1 : a.firstDay > b.firstDay ? -1 : b.id - a.id;

/** The one that starts next first. */
const soonestFirst = (a: Candidate, b: Candidate): number =>
  a.firstDay === b.firstDay ? b.id - a.id : a.firstDay < b.firstDay ? -1 : 1;

/**
 * The events the overview shows a visitor (ADR 0084): at most 6 of `candidates` (visible and not over),
 * chosen in this order, so that no coming event pushes out a running one or one the visitor takes part in:
 * running events the visitor takes part in, other running events, coming events the visitor takes part in,
 * other coming events; running ones the last started first, coming ones the next first. They are shown
 * running ones above coming ones, each group newest first (by first day): on a phone the event of the day
 * is the first card, not the last.
 */
export function chooseOverviewCongresses<T extends Candidate>(
  candidates: readonly T[],
  today: IsoDate,
  takesPart: (id: number) => boolean,
  max: number = OVERVIEW_MAX_CONGRESSES,
): T[] {
  const coming = (congress: Candidate) => congress.firstDay > today;
  const groups: [T[], T[], T[], T[]] = [[], [], [], []];
  for (const congress of candidates) {
    groups[(coming(congress) ? 2 : 0) + (takesPart(congress.id) ? 0 : 1)]?.push(congress);
  }
  const chosen: T[] = [];
  groups.forEach((group, i) => {
    if (chosen.length < max) {
      chosen.push(...group.sort(i < 2 ? newestFirst : soonestFirst).slice(0, max - chosen.length));
    }
  });
  return chosen.sort((a, b) => Number(coming(a)) - Number(coming(b)) || newestFirst(a, b));
}
