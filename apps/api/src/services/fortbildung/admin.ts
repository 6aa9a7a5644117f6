import type { DbOrTx } from "@app/db";
import {
  ADMIN_PAGE_SIZE,
  berlinDate,
  type ChamberReportState,
  type IsoDate,
  type ZFortbildungDayInput,
} from "@app/shared";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { AdminPage } from "../../lib/paging";
import { loadIssuer } from "../certificates/issuer";
import { chamberReportState } from "../certificates/reported";
import type { ServiceDeps } from "../deps";
import { type FortbildungEvent, loadFortbildungEvent, type ParticipantDay, participantDays } from "./facts";
import { type UnknownLengths, unknownLengths } from "./unknown-lengths";

/** What the organiser's section shows of a participant's day. */
export interface FortbildungRow {
  /** the participant's account (a row per participant and day) */
  id: number;
  name: string;
  email: string;
  contentMinutes: number;
  attendedMinutes: number;
  requiredMinutes: number;
  checksPassed: number;
  checksRequired: number;
  /** "Player", "Teilnehmerbericht", both, or none */
  source: string;
  reached: boolean;
  points: number;
}

export const sourceLabel = (d: Pick<ParticipantDay, "fromPlayer" | "fromReport">) =>
  [d.fromPlayer && "Player", d.fromReport && "Teilnehmerbericht"].filter(Boolean).join(" + ") || "–";

export function toRow(event: FortbildungEvent, d: ParticipantDay): FortbildungRow {
  return {
    id: d.userId,
    name: `${d.firstname} ${d.lastname}`.trim(),
    email: d.email,
    contentMinutes: d.outcome.contentMinutes,
    attendedMinutes: d.outcome.attendedMinutes,
    requiredMinutes: d.outcome.requiredMinutes,
    checksPassed: d.checksPassed,
    checksRequired: event.rules.presenceChecksRequired,
    source: sourceLabel(d),
    reached: d.outcome.reached,
    points: d.outcome.points,
  };
}

/** The event's calendar days, first to last. */
export function eventDays(event: Pick<FortbildungEvent, "firstDay" | "lastDay">): IsoDate[] {
  const days: IsoDate[] = [];
  const last = event.lastDay ?? event.firstDay;
  for (let d = new Date(`${event.firstDay}T00:00:00Z`); ; d.setUTCDate(d.getUTCDate() + 1)) {
    const iso = d.toISOString().slice(0, 10) as IsoDate;
    if (iso > last || days.length > 366) {
      return days;
    }
    days.push(iso);
  }
}

/** The Fortbildung event the section opens with: the running one, else the next, else the latest. */
async function defaultEvent(db: DbOrTx, today: IsoDate): Promise<number | null> {
  const result = await db.execute<{ id: number }>(sql`
    SELECT id FROM congresses WHERE fortbildung
     ORDER BY (${today}::date BETWEEN first_day AND coalesce(last_day, first_day)) DESC,
              (first_day > ${today}::date) DESC,
              CASE WHEN first_day > ${today}::date THEN first_day END ASC,
              coalesce(last_day, first_day) DESC, id DESC
     LIMIT 1`);
  return result.rows[0]?.id ?? null;
}

export interface FortbildungSection {
  event: (Omit<FortbildungEvent, "rules"> & FortbildungEvent["rules"] & { days: IsoDate[] }) | null;
  day: IsoDate | null;
  /** participants listed on the day, and those who reached it (whatever the filter) */
  listed: number;
  reached: number;
  page: AdminPage<FortbildungRow>;
  /** whether the chamber's report can be made yet (it lists the certificates, ADR 0116) */
  chamberReport: ChamberReportState | null;
  /** the videos of the event's days whose length is not known, before, during and after the event */
  unknownLengths: UnknownLengths;
}

const emptyPage = (page: number): AdminPage<FortbildungRow> => ({
  items: [],
  total: 0,
  totalExact: true,
  page,
  pageSize: ADMIN_PAGE_SIZE,
});

/**
 * The organiser's section (ADR 0105): one day of an event's participants with their minutes,
 * presence checks, source and outcome, filtered by "erreicht / nicht erreicht", a page at a time. One
 * statement for the day (the rule runs on the rows, so the filter pages after it), and one for the videos
 * whose length is unknown (ADR 0105), which the section warns about.
 */
export async function fortbildungSection(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  input: z.output<typeof ZFortbildungDayInput>,
): Promise<FortbildungSection> {
  const today = berlinDate(clock.now());
  const congressId = input.congressId ?? (await defaultEvent(db, today));
  if (congressId === null) {
    return {
      event: null,
      day: null,
      listed: 0,
      reached: 0,
      page: emptyPage(input.page),
      chamberReport: null,
      unknownLengths: { total: 0, videos: [] },
    };
  }
  const loaded = await loadFortbildungEvent(db, congressId);
  const days = eventDays(loaded);
  const day =
    input.day && days.includes(input.day as IsoDate)
      ? (input.day as IsoDate)
      : ((days.includes(today) ? today : days[0]) ?? null);
  const { rules, ...rest } = loaded;
  const event = { ...rest, ...rules, days };
  const rows = day ? (await participantDays(db, loaded, { day })).map((d) => toRow(loaded, d)) : [];
  const matching = rows.filter(
    (r) => input.reached === undefined || r.reached === (input.reached === "erreicht"),
  );
  const offset = (input.page - 1) * ADMIN_PAGE_SIZE;
  return {
    event,
    day,
    listed: rows.length,
    reached: rows.filter((r) => r.reached).length,
    page: {
      items: matching.slice(offset, offset + ADMIN_PAGE_SIZE),
      total: matching.length,
      totalExact: true,
      page: input.page,
      pageSize: ADMIN_PAGE_SIZE,
    },
    chamberReport: chamberReportState(loaded, (await loadIssuer(db)).name !== "", today),
    unknownLengths: await unknownLengths(db, congressId),
  };
}
