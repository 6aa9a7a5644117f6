import {
  berlinDate,
  berlinInstant,
  berlinSecondOfDay,
  formatGermanDate,
  HEARTBEAT_MAX_CREDIT_SECONDS,
  type IsoDate,
  MAX_MEDIA_SECONDS,
  MSG_ATTENDANCE,
  MSG_WATCH,
  type PresenceCheckAsked,
  type ZHeartbeatInput,
} from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { type Param, type Placeholders, preparedStatement } from "../../lib/prepared-statement";
import type { ServiceDeps } from "../deps";
import { videoFacts } from "../fortbildung/video-length";
import { deathCongressClosedUntil, findPackage } from "../visitor/packages";
import { previewKey } from "../visitor/video-preview";
import { loadViewer } from "../visitor/viewer";
import { congressAccess, staffList } from "./access";
import {
  askedCheck,
  type CheckScope,
  type CheckScopeParams,
  drawPresenceChecks,
  type PresenceAskRow,
  presenceAsk,
  presenceAskColumns,
} from "./presence-checks";

export type HeartbeatInput = z.output<typeof ZHeartbeatInput> & { userId: number };
export interface HeartbeatAnswer {
  /** the seconds credited for this video today */
  seconds: number;
  /** a presence check to answer (ADR 0109): asked by this heartbeat or still open */
  presenceCheck?: PresenceCheckAsked;
}
type WatchDeps = Pick<ServiceDeps, "db" | "env" | "clock">;

/** The seconds the ranges cover (a video the server knows as live though the player took it for a recording). */
function playedSeconds(ranges: HeartbeatInput["ranges"]): number {
  return Math.min(
    HEARTBEAT_MAX_CREDIT_SECONDS,
    ranges.reduce((sum, { start, end }) => sum + Math.max(0, end - start), 0),
  );
}

/** `{[0,60),[120,180)}`: the reported positions as whole seconds (rounded), for an int4multirange. */
export function positionsLiteral(ranges: HeartbeatInput["ranges"]): string {
  const parts = ranges
    .map(({ start, end }) => [Math.round(start), Math.round(end)] as const)
    .filter(([start, end]) => end > start)
    .map(([start, end]) => `[${start},${end})`);
  return `{${parts.join(",")}}`;
}

/** What a heartbeat's statement takes per call (`creditHeartbeat`); each shape uses some of them. */
interface CreditValues {
  userId: number;
  congressId: number;
  /** the package page the recording plays on; null on the event page */
  packageId: number | null;
  today: IsoDate;
  /** today as the event's days name theirs (`exclusive_date`, dd.mm.yyyy) */
  germanToday: string;
  now: Date;
  /** the video's key (`previewKey`) and its URL as the event's content lists it */
  key: string;
  videoUrl: string;
  /** the staff whitelist (`staffList`) */
  staff: string;
  /** a recording: the played media seconds (`positionsLiteral`) */
  positions: string;
  /** whether the player took the video for a live stream (followed only where the server does not know) */
  clientLive: boolean;
  /** a live stream: Berlin's second of the day now, and how many seconds before it the player played */
  second: number;
  liveSeconds: number;
  /** the person's clock: elapsed seconds since Berlin midnight now */
  elapsed: number;
}

type CreditRow = {
  active: boolean;
  allowed: boolean;
  known: boolean;
  seconds: number | null;
} & PresenceAskRow;

/**
 * What the video is, as the server knows it (ADR 0126): a live stream when the organiser or Vimeo says
 * so, else a recording once its length is known (`videoFacts`); only a video of which neither is known is
 * taken as the player reports it (the person's clock bounds it either way).
 */
function videoKind(p: Placeholders<CreditValues>): SQL {
  return sql`kind AS (
      SELECT f.length, CASE WHEN f.live THEN true WHEN f.length IS NOT NULL THEN false
        ELSE ${p.clientLive}::boolean END AS live
      FROM ${videoFacts(p.congressId, p.videoUrl, p.key)} f
    )`;
}

/**
 * The positions this heartbeat reports: for a recording its played media seconds within the video's length
 * (or the longest we count); for a live stream the last `liveSeconds` of the wall clock in Berlin seconds
 * of the day, so two tabs of one stream report the same seconds.
 */
function reported(p: Placeholders<CreditValues>): SQL {
  return sql`beat AS (
      SELECT CASE WHEN k.live
        THEN int4multirange(int4range(greatest(0, ${p.second}::int - ${p.liveSeconds}::int), ${p.second}::int))
        ELSE ${p.positions}::int4multirange * int4multirange(int4range(0, coalesce(k.length, ${MAX_MEDIA_SECONDS}::int)))
      END AS positions FROM kind k
    )`;
}

/**
 * The person's clock of the day (ADR 0126), moved first, so that it is the lock every heartbeat of the
 * person waits for: a heartbeat may credit (`granted`) the wall-clock seconds since the person's clock (of any
 * video, event, tab or device), at most HEARTBEAT_MAX_CREDIT_SECONDS; the day's first credits nothing. The clock
 * moves on by what the heartbeat spends of them (`spent`: its video's new positions, at most `granted`), so what
 * one tab leaves unspent (its video started late, or was paused) another tab's heartbeat can still credit; a
 * heartbeat that reports nothing played leaves the clock where it is, so starting a second video does not take
 * the minute of the first (ADR 0149). `wall` keeps the stretches the clock moved over.
 *
 * `spent` reads the video's credited positions as the statement found them: a heartbeat of the same video that
 * committed while this one waited for the clock's lock is not among them, so `spent` can only come out larger
 * than what `credited` then credits, and the clock never lets more through than the wall clock.
 */
function personClock(p: Placeholders<CreditValues>, allowed: SQL): SQL {
  const sinceLast = sql`least(${HEARTBEAT_MAX_CREDIT_SECONDS}::int, greatest(0,
    floor(extract(epoch FROM ${p.now}::timestamptz)) - floor(extract(epoch FROM c.last_beat_at))))::int`;
  const creditedBefore = sql`(SELECT w.played FROM watch_time w WHERE w.user_id = ${p.userId}::int
    AND w.congress_id = ${p.congressId}::int AND w.day = ${p.today}::date AND w.video_key = ${p.key}
    AND w.source = 'player')`;
  return sql`clock AS (
      INSERT INTO watch_clocks AS c (user_id, day, last_beat_at, granted, wall)
      SELECT ${p.userId}::int, ${p.today}::date, ${p.now}::timestamptz, 0, '{}' WHERE ${allowed}
      ON CONFLICT (user_id, day) DO UPDATE SET (last_beat_at, granted, wall) = (
        SELECT CASE WHEN s.playing
            THEN greatest(c.last_beat_at, ${p.now}::timestamptz - make_interval(secs => s.granted - s.spent))
            ELSE c.last_beat_at END,
          s.granted,
          CASE WHEN s.playing AND s.spent > 0
            THEN c.wall + int4multirange(int4range(greatest(0, ${p.elapsed}::int - s.granted),
              greatest(0, ${p.elapsed}::int - s.granted + s.spent)))
            ELSE c.wall END
        FROM (
          SELECT g.playing, g.granted, multirange_seconds(multirange_take(
            (SELECT positions FROM beat) - coalesce(${creditedBefore}, '{}'::int4multirange), g.granted)) AS spent
          FROM (SELECT (SELECT positions FROM beat) <> '{}'::int4multirange AS playing, ${sinceLast} AS granted) g
        ) s
      )
      RETURNING granted
    )`;
}

/** Whether the video is one of the event's (on a day shown today, for the event page). */
function videoOfCongress(
  congressId: Param<number>,
  url: Param<string>,
  germanToday: Param<string> | null,
): SQL {
  const dayShown =
    germanToday === null ? sql`true` : sql`coalesce(d->>'exclusive_date', '') IN ('', ${germanToday})`;
  return sql`EXISTS (
    SELECT 1 FROM congress_contents cc
      CROSS JOIN LATERAL jsonb_array_elements(cc.data->'days') d
      CROSS JOIN LATERAL jsonb_array_elements(d->'videos') v
    WHERE cc.congress_id = ${congressId} AND v->>'url' = ${url} AND ${dayShown})`;
}

/**
 * Credits a heartbeat in one statement (ADR 0126): the seconds of the video not credited before
 * (`reported − played`), earliest first, at most what the person's clock grants, join `played`. The clock's
 * row is written first and locked until the end, so heartbeats of one person (any video, tab or device) run
 * one after the other, and two at once cannot both spend the same wall-clock seconds; the video's conflict
 * update runs on the locked row, so they cannot credit the same positions either. `viewer`, `target`
 * (user_id, id, staff, counts) and `known` (video: one of the event's) are the access rule: on the event
 * page attendance's (`congressAccess`) and a video the event shows today; on a package page the package's
 * rules, checked before (`creditHeartbeat`), and any of the event's videos. The same statement asks a due
 * presence check on the event page (`presenceAsk`, ADR 0109).
 */
function creditStatement(p: Placeholders<CreditValues>, eventPage: boolean): SQL {
  const ctes = eventPage
    ? sql`${congressAccess(p.staff, { userId: p.userId, congressId: p.congressId, source: "video" }, p.today)},
      known AS (SELECT ${videoOfCongress(p.congressId, p.videoUrl, p.germanToday)} AS video)`
    : sql`viewer AS (SELECT ${p.userId}::int AS id), target AS (
      SELECT ${p.congressId}::int AS id, ${p.userId}::int AS user_id, false AS staff, true AS counts),
      known AS (SELECT ${videoOfCongress(p.congressId, p.videoUrl, null)} AS video)`;
  const allowed = sql`EXISTS (SELECT 1 FROM target WHERE counts) AND (SELECT video FROM known)`;
  const checks: CheckScopeParams = { userId: p.userId, congressId: p.congressId, day: p.today };
  return sql`
    WITH ${ctes}, ${videoKind(p)}, ${reported(p)}, ${personClock(p, allowed)},
    credited AS (
      INSERT INTO watch_time AS w
        (user_id, congress_id, day, video_key, package_id, source, played, seconds, last_beat_at)
      SELECT t.user_id, t.id, ${p.today}::date, ${p.key}, ${p.packageId}::int, 'player', f.played,
        multirange_seconds(f.played), ${p.now}::timestamptz
      FROM target t CROSS JOIN clock CROSS JOIN LATERAL (
        SELECT multirange_take((SELECT positions FROM beat), clock.granted) AS played
      ) f
      WHERE t.counts
      ON CONFLICT (user_id, congress_id, day, video_key, source) DO UPDATE SET
        (played, seconds, last_beat_at, updated_at) = (
          SELECT n.played, multirange_seconds(n.played), greatest(w.last_beat_at, ${p.now}::timestamptz), ${p.now}::timestamptz
          FROM (SELECT w.played + multirange_take((SELECT positions FROM beat) - w.played,
            (SELECT granted FROM clock)) AS played) n
        )
      RETURNING seconds
    ), ${presenceAsk(checks, p.key, p.now, eventPage)}
    SELECT EXISTS (SELECT 1 FROM viewer) AS active,
      EXISTS (SELECT 1 FROM target WHERE counts OR staff) AS allowed,
      (SELECT video FROM known) AS known,
      (SELECT seconds FROM credited) AS seconds,
      ${presenceAskColumns(checks)}`;
}

const creditShape = (eventPage: boolean) =>
  preparedStatement<CreditValues, CreditRow>((p) => creditStatement(p, eventPage));
/** the statement's two shapes (ADR 0108): the event page or a package page */
const CREDIT = { event: creditShape(true), package: creditShape(false) };

function refuse(reason: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `watch time refused: ${reason}`,
    MSG_ATTENDANCE.refused,
    MSG_ATTENDANCE.refusedTitle,
  );
}

/**
 * A heartbeat of the player (ADR 0104, ADR 0126): credits the distinct seconds played since the previous one, while
 * the content's access rules hold, and answers the seconds credited for this video today. On the event page
 * the rules are attendance's (`congressAccess`) and the video must be one the event shows today; on a
 * package page the package's (bought or unlocked, available, the death congress open), read first, then
 * the same one statement writes. Staff may play everything but are credited only within the rules.
 */
export async function creditHeartbeat(ctx: WatchDeps, input: HeartbeatInput): Promise<HeartbeatAnswer> {
  const now = ctx.clock.now();
  const today = berlinDate(now);
  if (input.packageId !== undefined) {
    const viewer = await loadViewer(ctx, input.userId);
    const view = await findPackage(ctx, viewer, input.packageId);
    if (
      !view.openable ||
      view.congress.id !== input.congressId ||
      deathCongressClosedUntil(ctx, viewer, input.packageId)
    ) {
      throw refuse("package");
    }
  }
  const statement = input.packageId === undefined ? CREDIT.event : CREDIT.package;
  const row = await statement(ctx.db, {
    userId: input.userId,
    congressId: input.congressId,
    packageId: input.packageId ?? null,
    today,
    germanToday: formatGermanDate(today),
    now,
    key: previewKey(input.videoUrl),
    videoUrl: input.videoUrl,
    staff: staffList(ctx.env),
    positions: positionsLiteral(input.ranges),
    clientLive: input.live,
    second: berlinSecondOfDay(now),
    liveSeconds: Math.round(input.live ? input.liveSeconds : playedSeconds(input.ranges)),
    elapsed: Math.floor((now.getTime() - berlinInstant(today).getTime()) / 1000),
  });
  if (!row?.active) {
    throw new AppError("UNAUTHORIZED", `user ${input.userId} missing or inactive`);
  }
  if (!row.allowed) {
    throw refuse("congress");
  }
  if (!row.known) {
    throw new AppError(
      "FORBIDDEN",
      "watch time refused: video",
      MSG_WATCH.video,
      MSG_ATTENDANCE.refusedTitle,
    );
  }
  const checks: CheckScope = { userId: input.userId, congressId: input.congressId, day: today };
  if (row.checks_undrawn && row.checks_per_day !== null) {
    // the first heartbeat of the day with the event's checks (once a day): asked from the next one on
    await drawPresenceChecks(ctx, checks, row.checks_per_day);
  }
  const presenceCheck = askedCheck(checks, row);
  return presenceCheck ? { seconds: row.seconds ?? 0, presenceCheck } : { seconds: row.seconds ?? 0 };
}
