import type { IsoDate } from "@app/shared";
import type { Caller } from "./adapter";

/** What every congress the procedures answer has: the web app's `firstDay` / `lastDay`. */
interface CongressDays {
  id: number;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
}

/**
 * A congress as spec section 3 names it: its days as `firstCongressDay.date` and `lastCongressDay.date`
 * (null for a one-day congress, as the form sends it) instead of the procedures' `firstDay` / `lastDay`,
 * and its `participationCount` (ADR 0087).
 */
export function specCongress<C extends CongressDays & { participationCount: number }>(congress: C) {
  const { firstDay, lastDay, ...rest } = congress;
  return {
    ...rest,
    firstCongressDay: { date: firstDay },
    lastCongressDay: lastDay === null ? null : { date: lastDay },
  };
}

/** Congresses of a procedure without their participation count, in the spec's shape with it. */
export async function specCongresses<C extends CongressDays>(caller: Caller, list: C[]) {
  const counts = await caller.congress.countParticipations({ congressIds: list.map((c) => c.id) });
  return list.map((congress) => specCongress({ ...congress, participationCount: counts[congress.id] ?? 0 }));
}

/** One congress of a procedure, in the spec's shape. */
export async function specCongressOf<C extends CongressDays>(caller: Caller, congress: C) {
  const [shaped] = await specCongresses(caller, [congress]);
  return shaped;
}
