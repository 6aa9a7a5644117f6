import { type DbOrTx, schema } from "@app/db";
import {
  berlinDate,
  type ContentType,
  congressTiming,
  type IsoDate,
  isTicketed,
  REFUSALS,
  type Refusal,
  type StoredDay,
  vimeoEmbedUrl,
  visibleDays,
} from "@app/shared";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { type AppError, refuse } from "../../lib/app-error";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congresses, congressContents, congressPackages, participations, congressTicketOrders } = schema;

export interface CongressView {
  id: number;
  title: string;
  description: string;
  picture: string | null;
  webinar: boolean;
  /** only for participants (and staff): the link is what a ticket pays for */
  webinarUrl: string | null;
  webinarStartTime: string | null;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  digistoreIdTicket: number;
  digistoreIdTicketAndPackage: number;
  ticketed: boolean;
  inProgress: boolean;
  inFuture: boolean;
  inPast: boolean;
  /** the visitor's participation; for a ticketed congress it counts only with a paid ticket order */
  participationId: number | null;
  currentUserParticipating: boolean;
  ticketBought: boolean;
}

const paidTicket = (userId: number) =>
  sql<boolean>`EXISTS (SELECT 1 FROM ${congressTicketOrders} WHERE ${congressTicketOrders.congressId} = ${congresses.id} AND ${congressTicketOrders.userId} = ${userId} AND ${congressTicketOrders.status} = 'paid')`;

/** Congresses with the visitor's participation and ticket state, in one query. */
export function selectCongresses(db: DbOrTx, userId: number) {
  return db
    .select({
      congress: congresses,
      participationId: participations.id,
      ticketBought: paidTicket(userId),
    })
    .from(congresses)
    .leftJoin(
      participations,
      and(eq(participations.congressId, congresses.id), eq(participations.userId, userId)),
    );
}

type VisitorCongressRow = Awaited<ReturnType<ReturnType<typeof selectCongresses>["where"]>>[number];

export function toCongressView(row: VisitorCongressRow, today: IsoDate, viewer: Viewer): CongressView {
  const c = row.congress;
  const ticketed = isTicketed(c);
  const participating = row.participationId !== null && (!ticketed || row.ticketBought);
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    picture: c.picture,
    webinar: c.webinar,
    webinarUrl: participating || viewer.isStaff ? c.webinarUrl : null,
    webinarStartTime: c.webinarStartTime,
    firstDay: c.firstDay,
    lastDay: c.lastDay,
    digistoreIdTicket: c.digistoreIdTicket,
    digistoreIdTicketAndPackage: c.digistoreIdTicketAndPackage,
    ticketed,
    ...congressTiming(c.firstDay, c.lastDay, today),
    participationId: participating ? row.participationId : null,
    currentUserParticipating: participating,
    ticketBought: row.ticketBought,
  };
}

export interface CongressPageView extends CongressView {
  /**
   * the event has a package: ticket plus package grants more than the ticket only then, so the
   * participation page offers it only then
   */
  hasPackage: boolean;
}

/** One congress as the participation and purchase screens see it; invisible congresses exist only for staff. */
export async function getCongress(
  ctx: ViewerDeps,
  { userId, congressId }: { userId: number; congressId: number },
): Promise<CongressPageView> {
  const viewer = await loadViewer(ctx, userId);
  const [row] = await selectCongresses(ctx.db, viewer.id).where(eq(congresses.id, congressId));
  if (!row || (!row.congress.visible && !viewer.isStaff)) {
    throw refuse(REFUSALS.unknownCongress, `congress ${congressId}`);
  }
  const [pkg] = await ctx.db
    .select({ id: congressPackages.id })
    .from(congressPackages)
    .where(eq(congressPackages.congressId, congressId))
    .limit(1);
  return { ...toCongressView(row, berlinDate(ctx.clock.now()), viewer), hasPackage: pkg !== undefined };
}

/**
 * How many take part in each of `congressIds` (spec section 3: `participationCount`), for the REST answers:
 * of the congresses the caller may see (hidden ones for admins and staff only; others are left out).
 */
export async function participationCounts(
  ctx: ViewerDeps,
  { userId, congressIds, admin }: { userId: number; congressIds: number[]; admin: boolean },
): Promise<Record<number, number>> {
  if (congressIds.length === 0) {
    return {};
  }
  const seesHidden = admin || (await loadViewer(ctx, userId)).isStaff;
  const rows = await ctx.db
    .select({ id: congresses.id, participationCount: count(participations.id) })
    .from(congresses)
    .leftJoin(participations, eq(participations.congressId, congresses.id))
    .where(and(inArray(congresses.id, congressIds), seesHidden ? undefined : eq(congresses.visible, true)))
    .groupBy(congresses.id);
  return Object.fromEntries(rows.map((row) => [row.id, row.participationCount]));
}

export interface PlayableVideo {
  url: string;
  /** privacy-friendly player address, or null when the URL is not one of the video host's */
  embedUrl: string | null;
  comment: string;
}

export interface PlayableDay {
  name: string;
  videos: PlayableVideo[];
}

/** The stored contents of congresses as the player needs them; hidden days are left out entirely. */
export async function playableDays(
  db: DbOrTx,
  congressId: number,
  today: IsoDate,
  options: { ignoreExclusiveDates?: boolean } = {},
): Promise<PlayableDay[]> {
  const rows = await db
    .select({ type: congressContents.type, data: congressContents.data })
    .from(congressContents)
    .where(eq(congressContents.congressId, congressId))
    .orderBy(asc(congressContents.id));
  const days = visibleDays(
    rows.map((r) => ({ type: r.type as ContentType, days: (r.data.days ?? []) as StoredDay[] })),
    today,
    options,
  );
  return days.map((day) => ({
    name: day.name,
    videos: day.videos.map((v) => ({ ...v, embedUrl: vimeoEmbedUrl(v.url) })),
  }));
}

/** Why the congress content was refused, in the order of the spec's checks. */
export type ContentDenial = "past" | "not-started" | "not-participating";

function deny(reason: ContentDenial, refusal: Refusal): AppError {
  return refuse(refusal, `congress content refused: ${reason}`, reason);
}

/**
 * The congress content page: the four access checks of the spec in their order (staff bypass them), then the
 * videos of the days visible today. Nothing is sent for a refused visitor.
 */
export async function congressContent(
  ctx: ViewerDeps,
  { userId, congressId }: { userId: number; congressId: number },
): Promise<{ congress: CongressView; days: PlayableDay[] }> {
  const viewer = await loadViewer(ctx, userId);
  const today = berlinDate(ctx.clock.now());
  const [row] = await selectCongresses(ctx.db, viewer.id).where(eq(congresses.id, congressId));
  // a hidden congress is answered exactly as an unknown one: its id reveals nothing (ADR 0058)
  if (!row || (!row.congress.visible && !viewer.isStaff)) {
    throw refuse(REFUSALS.congressNotFound, `congress ${congressId}`);
  }
  const congress = toCongressView(row, today, viewer);
  if (!viewer.isStaff) {
    if (congress.inPast) {
      throw deny("past", REFUSALS.congressOver);
    }
    if (!congress.inProgress) {
      throw deny("not-started", REFUSALS.congressNotStarted);
    }
    if (!congress.currentUserParticipating) {
      throw deny("not-participating", REFUSALS.notParticipating);
    }
  }
  const days = await playableDays(ctx.db, congressId, today, { ignoreExclusiveDates: viewer.isStaff });
  return { congress, days };
}
