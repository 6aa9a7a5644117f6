import { type DbOrTx, schema } from "@app/db";
import { addDays, berlinDate, type IsoDate, REFUSALS, WEBINAR_CALENDAR_MINUTES } from "@app/shared";
import { eq } from "drizzle-orm";
import { refuse } from "../../lib/app-error";
import { appLink } from "../auth/user-rows";
import type { ServiceDeps } from "../deps";
import { selectCongresses, toCongressView } from "../visitor/congresses";
import { loadViewer, type Viewer, type ViewerDeps } from "../visitor/viewer";
import { buildCalendar, type CalendarDay } from "./ics";

export interface CalendarFile {
  fileName: string;
  content: string;
}

type CalendarViewer = Pick<Viewer, "id" | "isStaff">;

function congressDays(firstDay: IsoDate, lastDay: IsoDate | null): IsoDate[] {
  const days: IsoDate[] = [];
  for (let day = firstDay; day <= (lastDay ?? firstDay); day = addDays(day, 1)) {
    days.push(day);
  }
  return days;
}

/**
 * The calendar file of one congress as `viewer` may see it: every day of the congress, all-day or (webinars) at
 * the start time in Berlin. The webinar link follows the rule of the congress view (participants, and for a
 * ticketed congress only with a paid ticket). Null when the congress does not exist.
 */
export async function congressCalendar(
  db: DbOrTx,
  appUrl: string,
  congressId: number,
  viewer: CalendarViewer,
  now: Date,
): Promise<(CalendarFile & { visible: boolean }) | null> {
  const [row] = await selectCongresses(db, viewer.id).where(eq(schema.congresses.id, congressId));
  if (!row) {
    return null;
  }
  // only isStaff and id are read by the rule
  const congress = toCongressView(row, berlinDate(now), viewer as Viewer);
  const congressUrl = congress.webinar ? appLink(appUrl, "") : appLink(appUrl, "congress", congress.id);
  const timed = congress.webinar && congress.webinarStartTime ? congress.webinarStartTime : null;
  const description = [
    congress.description,
    `Zur Veranstaltung: ${congressUrl}`,
    congress.webinar &&
      (congress.webinarUrl
        ? `Link zum Webinar: ${congress.webinarUrl}`
        : "Den Link zum Webinar finden Sie nach der Anmeldung in Ihrer Übersicht."),
  ]
    .filter(Boolean)
    .join("\n\n");
  const host = new URL(appUrl).host;
  const days = congressDays(congress.firstDay, congress.lastDay);
  const entries: CalendarDay[] = days.map((day, index) => ({
    uid: `kongress-${congress.id}-${day}@${host}`,
    day,
    summary: days.length > 1 ? `${congress.title} (Tag ${index + 1} von ${days.length})` : congress.title,
    description,
    url: congressUrl,
    location: congress.webinarUrl ?? "Online",
  }));
  const content = buildCalendar(entries, {
    name: congress.title,
    startTime: timed,
    durationMinutes: WEBINAR_CALENDAR_MINUTES,
    now,
  });
  return { fileName: `veranstaltung-${congress.id}.ics`, content, visible: row.congress.visible };
}

/** The calendar file for the signed-in visitor; invisible congresses exist only for staff (as in `getCongress`). */
export async function visitorCalendar(
  ctx: ViewerDeps & Pick<ServiceDeps, "clock">,
  { userId, congressId }: { userId: number; congressId: number },
): Promise<CalendarFile> {
  const viewer = await loadViewer(ctx, userId);
  const file = await congressCalendar(ctx.db, ctx.env.APP_URL, congressId, viewer, ctx.clock.now());
  if (!file || (!file.visible && !viewer.isStaff)) {
    throw refuse(REFUSALS.unknownCongress, `congress ${congressId}`);
  }
  return { fileName: file.fileName, content: file.content };
}
