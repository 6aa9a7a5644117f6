import { createHash } from "node:crypto";
import {
  berlinDate,
  berlinSecondOfDay,
  formatGermanDate,
  HEARTBEAT_MAX_CREDIT_SECONDS,
  MAX_MEDIA_SECONDS,
  MSG_ATTENDANCE,
  MSG_WATCH,
  type PresenceCheckAsked,
  type ZHeartbeatInput,
} from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import type { ServiceDeps } from "../deps";
import { deathCongressClosedUntil, findPackage } from "../visitor/packages";
import { previewKey } from "../visitor/video-preview";
import { loadViewer } from "../visitor/viewer";
import { congressAccess } from "./access";
import {
  askedCheck,
  type CheckScope,
  drawPresenceChecks,
  type PresenceAskRow,
  presenceAsk,
  presenceAskColumns,
} from "./presence-checks";

export type HeartbeatInput = z.output<typeof ZHeartbeatInput> & { userId: number };
export interface HeartbeatAnswer {
  /** the seconds credited for this video today */
  seconds: number;
  /** a presence check to answer (decision 109): asked by this heartbeat or still open */
  presenceCheck?: PresenceCheckAsked;
}
type WatchDeps = Pick<ServiceDeps, "db" | "env" | "clock">;

/** `{[0,60),[120,180)}`: the reported positions as whole seconds (rounded), for an int4multirange. */
export function positionsLiteral(ranges: HeartbeatInput["ranges"]): string {
  const parts = ranges
    .map(({ start, end }) => [Math.round(start), Math.round(end)] as const)
    .filter(([start, end]) => end > start)
    .map(([start, end]) => `[${start},${end})`);
  return `{${parts.join(",")}}`;
}

/**
 * The positions this heartbeat reports: for a recording its played media seconds within the video's length
 * (once oEmbed told it); for a live stream the last `liveSeconds` of the wall clock in Berlin seconds of
 * the day, so two tabs of one stream report the same seconds.
 */
function reported(input: HeartbeatInput, key: string, now: Date): SQL {
  if (input.live) {
    const second = berlinSecondOfDay(now);
    return sql`int4multirange(int4range(greatest(0, ${second}::int - ${Math.round(input.liveSeconds)}::int), ${second}::int))`;
  }
  return sql`(${positionsLiteral(input.ranges)}::int4multirange * coalesce(
      (SELECT int4multirange(int4range(0, p.duration_seconds)) FROM video_previews p
        WHERE p.key = ${key} AND p.duration_seconds > 0),
      int4multirange(int4range(0, ${MAX_MEDIA_SECONDS}::int))))`;
}

/**
 * Credits a heartbeat in one statement (decision 104): the seconds not credited before (`reported − played`),
 * earliest first and at most the wall-clock seconds since the previous heartbeat of the same video (at most
 * HEARTBEAT_MAX_CREDIT_SECONDS; the first one of a day at most that), join `played`. The conflict update
 * runs on the locked row, so two heartbeats at once cannot both credit the same seconds. `ctes` define
 * `viewer`, `target` (user_id, id, staff, counts: the access rule) and `known` (video: one of the event's).
 * The same statement asks a due presence check on the event page (`presenceAsk`, decision 109).
 */
function creditStatement(
  input: HeartbeatInput,
  key: string,
  now: Date,
  ctes: SQL,
  packageId: number | null,
): SQL {
  const checks: CheckScope = { userId: input.userId, congressId: input.congressId, day: berlinDate(now) };
  const budgetSince = (last: SQL) =>
    sql`greatest(0, least(${HEARTBEAT_MAX_CREDIT_SECONDS}::int,
      coalesce(floor(extract(epoch FROM ${now}::timestamptz - ${last}))::int, ${HEARTBEAT_MAX_CREDIT_SECONDS}::int)))`;
  return sql`
    WITH ${ctes}, beat AS (SELECT ${reported(input, key, now)} AS positions),
    credited AS (
      INSERT INTO watch_time AS w
        (user_id, congress_id, day, video_key, package_id, source, played, seconds, last_beat_at)
      SELECT t.user_id, t.id, ${berlinDate(now)}::date, ${key}, ${packageId}::int, 'player', f.played,
        multirange_seconds(f.played), ${now}::timestamptz
      FROM target t CROSS JOIN LATERAL (
        SELECT multirange_take((SELECT positions FROM beat), ${HEARTBEAT_MAX_CREDIT_SECONDS}::int) AS played
      ) f
      WHERE t.counts AND (SELECT video FROM known)
      ON CONFLICT (user_id, congress_id, day, video_key, source) DO UPDATE SET
        (played, seconds, last_beat_at, updated_at) = (
          SELECT n.played, multirange_seconds(n.played), greatest(w.last_beat_at, ${now}::timestamptz), ${now}::timestamptz
          FROM (SELECT w.played + multirange_take((SELECT positions FROM beat) - w.played,
            ${budgetSince(sql`w.last_beat_at`)}) AS played) n
        )
      RETURNING seconds
    ), ${presenceAsk(checks, key, now, packageId === null)}
    SELECT EXISTS (SELECT 1 FROM viewer) AS active,
      EXISTS (SELECT 1 FROM target WHERE counts OR staff) AS allowed,
      (SELECT video FROM known) AS known,
      (SELECT seconds FROM credited) AS seconds,
      ${presenceAskColumns(checks)}`;
}

/** Whether the video is one of the event's (on a day shown today, for the event page). */
function videoOfCongress(congressId: number, url: string, today: string | null): SQL {
  const dayShown =
    today === null ? sql`true` : sql`coalesce(d->>'exclusive_date', '') IN ('', ${formatGermanDate(today)})`;
  return sql`EXISTS (
    SELECT 1 FROM congress_contents cc
      CROSS JOIN LATERAL jsonb_array_elements(cc.data->'days') d
      CROSS JOIN LATERAL jsonb_array_elements(d->'videos') v
    WHERE cc.congress_id = ${congressId} AND v->>'url' = ${url} AND ${dayShown})`;
}

const dialect = new PgDialect();

/**
 * Runs a heartbeat's statement as a prepared statement named by its text (decision 108): every value is a
 * parameter, so the few shapes (event or package page, recording or live stream) are a few names per
 * connection, and PostgreSQL parses each once instead of on each of the day's hottest writes.
 */
async function runPrepared<T>(db: WatchDeps["db"], statement: SQL): Promise<T | undefined> {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const name = `watch_time_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
  const { rows } = await db.$client.query({ name, text, values: params as unknown[] });
  return rows[0] as T | undefined;
}

function refuse(reason: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `watch time refused: ${reason}`,
    MSG_ATTENDANCE.refused,
    MSG_ATTENDANCE.refusedTitle,
  );
}

/**
 * A heartbeat of the player (issue 33): credits the distinct seconds played since the previous one, while
 * the content's access rules hold, and answers the seconds credited for this video today. On the event page
 * the rules are attendance's (`congressAccess`) and the video must be one the event shows today; on a
 * package page the package's (bought or unlocked, available, the death congress open), read first, then
 * the same one statement writes. Staff may play everything but are credited only within the rules.
 */
export async function creditHeartbeat(ctx: WatchDeps, input: HeartbeatInput): Promise<HeartbeatAnswer> {
  const now = ctx.clock.now();
  const today = berlinDate(now);
  const key = previewKey(input.videoUrl);
  let ctes: SQL;
  if (input.packageId === undefined) {
    ctes = sql`${congressAccess(ctx, { ...input, source: "video" }, today)}, known AS (
      SELECT ${videoOfCongress(input.congressId, input.videoUrl, today)} AS video)`;
  } else {
    const viewer = await loadViewer(ctx, input.userId);
    const view = await findPackage(ctx, viewer, input.packageId);
    if (
      !view.openable ||
      view.congress.id !== input.congressId ||
      deathCongressClosedUntil(ctx, viewer, input.packageId)
    ) {
      throw refuse("package");
    }
    ctes = sql`viewer AS (SELECT ${viewer.id}::int AS id), target AS (
      SELECT ${input.congressId}::int AS id, ${viewer.id}::int AS user_id, false AS staff, true AS counts),
      known AS (SELECT ${videoOfCongress(input.congressId, input.videoUrl, null)} AS video)`;
  }
  const row = await runPrepared<
    {
      active: boolean;
      allowed: boolean;
      known: boolean;
      seconds: number | null;
    } & PresenceAskRow
  >(ctx.db, creditStatement(input, key, now, ctes, input.packageId ?? null));
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
