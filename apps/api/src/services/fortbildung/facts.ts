import { type DbOrTx, schema } from "@app/db";
import {
  type DayFacts,
  type DayOutcome,
  dayOutcome,
  type FortbildungRules,
  type IsoDate,
  PRESENCE_CHECK_ANSWER_SECONDS,
  rulesOf,
} from "@app/shared";
import { eq, type SQL, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { PREVIEW_KEY_SQL } from "../visitor/video-preview";
import { videoSeconds } from "./video-length";

/**
 * What each participant did on each day of a Fortbildung event (ADR 0105): the day's content,
 * the distinct seconds credited for it, the presence checks passed, and what `dayOutcome` makes of them.
 */

export interface FortbildungEvent {
  id: number;
  title: string;
  fortbildung: boolean;
  webinar: boolean;
  vnr: string | null;
  fortbildungCategory: string | null;
  presenceChecksPerDay: number;
  webinarMinutes: number | null;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  rules: FortbildungRules;
}

export interface ParticipantDay extends DayFacts {
  userId: number;
  firstname: string;
  lastname: string;
  email: string;
  day: IsoDate;
  /** videos of the day whose length is not known (yet): left out of `contentSeconds` */
  unknownVideos: number;
  /** where the credited time comes from: the player's heartbeats, an imported participant report */
  fromPlayer: boolean;
  fromReport: boolean;
  outcome: DayOutcome;
}

export async function loadFortbildungEvent(db: DbOrTx, congressId: number): Promise<FortbildungEvent> {
  const { congresses } = schema;
  const [c] = await db.select().from(congresses).where(eq(congresses.id, congressId));
  if (!c) {
    throw new AppError("NOT_FOUND", `congress ${congressId}`, "Die Veranstaltung wurde nicht gefunden.");
  }
  return {
    id: c.id,
    title: c.title,
    fortbildung: c.fortbildung,
    webinar: c.webinar,
    vnr: c.vnr,
    fortbildungCategory: c.fortbildungCategory,
    presenceChecksPerDay: c.presenceChecksPerDay,
    webinarMinutes: c.webinarMinutes,
    firstDay: c.firstDay as IsoDate,
    lastDay: c.lastDay as IsoDate | null,
    rules: rulesOf(c),
  };
}

interface FactRow extends Record<string, unknown> {
  user_id: number;
  firstname: string;
  lastname: string;
  email: string;
  day: string;
  content_seconds: number;
  unknown_videos: number;
  attended_seconds: number;
  from_player: boolean;
  from_report: boolean;
  checks_passed: number;
}

/**
 * The keys (as `video_previews.key`) and addresses of the videos an event shows on `day`, a SQL date: those
 * of its content days with that `exclusive_date` and of the days without one, as the event page shows them
 * that day. Without a day: every video of the event (a package's whole recording, ADR 0119).
 */
function dayVideoKeys(congressId: number, day: SQL | null): SQL {
  const shownThatDay =
    day === null
      ? sql``
      : sql` AND coalesce(d->>'exclusive_date', '') IN ('', to_char(${day}, 'DD.MM.YYYY'))`;
  return sql`SELECT ${PREVIEW_KEY_SQL} AS key, v->>'url' AS url
    FROM congress_contents cc
    CROSS JOIN LATERAL jsonb_array_elements(coalesce(cc.data->'days', '[]'::jsonb)) d
    CROSS JOIN LATERAL jsonb_array_elements(coalesce(d->'videos', '[]'::jsonb)) v
   WHERE cc.congress_id = ${congressId}::int AND jsonb_typeof(v->'url') = 'string'${shownThatDay}`;
}

/** A webinar's day lasts its set length; other days last as long as their videos known lengths. */
const contentSeconds = (videoSeconds: SQL) => sql`CASE WHEN c.webinar AND c.webinar_minutes IS NOT NULL
  THEN c.webinar_minutes * 60 ELSE ${videoSeconds} END`;

/**
 * The distinct videos of `dayVideoKeys` with their length (`videoSeconds`: the organiser's, else Vimeo's,
 * else NULL), as a table of `key`, `url` and `seconds`.
 */
function videoLengths(congressId: number, day: SQL | null): SQL {
  return sql`SELECT k.key, k.url, ${videoSeconds(congressId, sql`k.url`, sql`k.key`)} AS seconds
    FROM (SELECT DISTINCT key, url FROM (${dayVideoKeys(congressId, day)}) dk) k`;
}

/** One day's content in seconds as a single SQL value (the presence checks' window, ADR 0109). */
export function contentSecondsOfDay(congressId: number, day: IsoDate): SQL {
  return sql`(SELECT ${contentSeconds(sql`(SELECT coalesce(sum(l.seconds), 0)
      FROM (${videoLengths(congressId, sql`${day}::date`)}) l)`)}
    FROM congresses c WHERE c.id = ${congressId}::int)`;
}

/**
 * One statement for the whole event (or one day, or one participant), whatever the number of participants:
 * - the days are the event's calendar days; a day's videos are those of its content days with that
 *   `exclusive_date` and of the days without one (as the event page shows them that day);
 * - its content is the sum of their lengths (`videoSeconds`: the organiser's, else oEmbed's), or for a
 *   webinar with a set length that length;
 * - attended are the distinct seconds per video of the day (and the webinar), the player's and an imported
 *   report's together (the union of their positions, so nothing counts twice), summed over the videos, and
 *   no more than the wall-clock time the person's heartbeats and the report cover together;
 * - presence checks count when answered within 120 s of being asked;
 * - participants are those signed up and anybody with watch time or checks (a package's buyer).
 */
function factsStatement(congressId: number, day: IsoDate | null, userId: number | null) {
  return sql<FactRow>`
    WITH c AS (
      SELECT id, first_day, coalesce(last_day, first_day) AS last_day, webinar, webinar_minutes
        FROM congresses WHERE id = ${congressId}
    ), dates AS (
      SELECT d::date AS day FROM c, generate_series(c.first_day, c.last_day, interval '1 day') AS d
       WHERE ${day}::date IS NULL OR d::date = ${day}::date
    ), day_videos AS (
      SELECT DISTINCT dt.day, k.key, k.url
        FROM dates dt CROSS JOIN LATERAL (${dayVideoKeys(congressId, sql`dt.day`)}) k
    ), lengths AS (
      SELECT k.key, ${videoSeconds(congressId, sql`k.url`, sql`k.key`)} AS seconds
        FROM (SELECT DISTINCT key, url FROM day_videos) k
    ), content AS (
      SELECT dt.day, ${contentSeconds(sql`coalesce(sum(l.seconds), 0)`)} AS seconds,
        CASE WHEN c.webinar AND c.webinar_minutes IS NOT NULL THEN 0
          ELSE count(dv.key) FILTER (WHERE l.seconds IS NULL) END AS unknown
        FROM dates dt CROSS JOIN c
        LEFT JOIN day_videos dv ON dv.day = dt.day
        LEFT JOIN lengths l ON l.key = dv.key
       GROUP BY dt.day, c.webinar, c.webinar_minutes
    ), per_video AS (
      SELECT w.user_id, w.day, multirange_seconds(range_agg(w.played)) AS seconds,
        bool_or(w.source = 'player') AS player, bool_or(w.source = 'report') AS report
        FROM watch_time w JOIN dates dt ON dt.day = w.day
       WHERE w.congress_id = ${congressId} AND (${userId}::int IS NULL OR w.user_id = ${userId}::int)
         AND (w.video_key = 'webinar'
           OR EXISTS (SELECT 1 FROM day_videos dv WHERE dv.day = w.day AND dv.key = w.video_key))
       GROUP BY w.user_id, w.day, w.video_key
    ), summed AS (
      SELECT user_id, day, sum(seconds) AS seconds, bool_or(player) AS player, bool_or(report) AS report
        FROM per_video GROUP BY user_id, day
    ), attended AS (
      -- player and report together count no more than the wall-clock time the two cover (ADR 0126)
      SELECT s.user_id, s.day, s.player, s.report, CASE WHEN s.player AND s.report AND k.wall IS NOT NULL
          THEN least(s.seconds, multirange_seconds(k.wall + coalesce(r.played, '{}'::int4multirange)))
          ELSE s.seconds END AS seconds
        FROM summed s
        LEFT JOIN watch_clocks k ON k.user_id = s.user_id AND k.day = s.day
        LEFT JOIN watch_time r ON r.user_id = s.user_id AND r.day = s.day AND r.congress_id = ${congressId}
          AND r.video_key = 'webinar' AND r.source = 'report'
    ), checks AS (
      SELECT pc.user_id, pc.day, count(*) FILTER (WHERE pc.answered_at <= pc.asked_at
          + make_interval(secs => ${PRESENCE_CHECK_ANSWER_SECONDS})) AS passed
        FROM presence_checks pc JOIN dates dt ON dt.day = pc.day
       WHERE pc.congress_id = ${congressId} AND (${userId}::int IS NULL OR pc.user_id = ${userId}::int)
       GROUP BY pc.user_id, pc.day
    ), people AS (
      SELECT user_id FROM participations WHERE congress_id = ${congressId}
      UNION SELECT user_id FROM watch_time WHERE congress_id = ${congressId}
      UNION SELECT user_id FROM presence_checks WHERE congress_id = ${congressId}
      UNION SELECT ${userId}::int WHERE ${userId}::int IS NOT NULL
    )
    SELECT u.id AS user_id, u.firstname, u.lastname, u.email, dt.day::text AS day,
      ct.seconds::int AS content_seconds, ct.unknown::int AS unknown_videos,
      coalesce(a.seconds, 0)::int AS attended_seconds,
      coalesce(a.player, false) AS from_player, coalesce(a.report, false) AS from_report,
      coalesce(ch.passed, 0)::int AS checks_passed
      FROM people pp
      JOIN users u ON u.id = pp.user_id AND u.deleted_at IS NULL
      CROSS JOIN dates dt
      JOIN content ct ON ct.day = dt.day
      LEFT JOIN attended a ON a.user_id = u.id AND a.day = dt.day
      LEFT JOIN checks ch ON ch.user_id = u.id AND ch.day = dt.day
     WHERE ${userId}::int IS NULL OR u.id = ${userId}::int
     ORDER BY dt.day, lower(u.lastname), lower(u.firstname), u.id`;
}

/** Every participant's days of an event (or of one `day`, or one `userId`'s), with their outcome. */
export async function participantDays(
  db: DbOrTx,
  event: FortbildungEvent,
  filter: { day?: IsoDate | undefined; userId?: number | undefined } = {},
): Promise<ParticipantDay[]> {
  const result = await db.execute<FactRow>(
    factsStatement(event.id, filter.day ?? null, filter.userId ?? null),
  );
  return result.rows.map((r) => {
    const facts: DayFacts = {
      contentSeconds: r.content_seconds,
      attendedSeconds: r.attended_seconds,
      checksPassed: r.checks_passed,
    };
    return {
      userId: r.user_id,
      firstname: r.firstname,
      lastname: r.lastname,
      email: r.email,
      day: r.day as IsoDate,
      ...facts,
      unknownVideos: r.unknown_videos,
      fromPlayer: r.from_player,
      fromReport: r.from_report,
      outcome: dayOutcome(event.rules, facts),
    };
  });
}

export interface RecordingFacts {
  /** the known lengths of the recording's videos */
  contentSeconds: number;
  /** the distinct media seconds of those videos watched on the package's page, on any day */
  attendedSeconds: number;
  unknownVideos: number;
}

/**
 * How much of a package's recording a buyer watched (ADR 0119): the videos of one day
 * of the event (`dayVideoKeys`, as the event page shows them that day) or of the whole event, their known
 * lengths, and per video the union of the positions the player credited on this package's page on any day
 * (a recording is watched after the event), clipped to the video's length. `dayOutcome` with the event's
 * required share decides whether it is enough, as for a congress day.
 */
export async function recordingFacts(
  db: DbOrTx,
  input: { userId: number; congressId: number; packageId: number; day: IsoDate | null },
): Promise<RecordingFacts> {
  const day = input.day === null ? null : sql`${input.day}::date`;
  const result = await db.execute<{
    content_seconds: number;
    unknown_videos: number;
    attended_seconds: number;
  }>(sql`
    WITH videos AS (${videoLengths(input.congressId, day)}),
    watched AS (
      SELECT multirange_seconds(range_agg(w.played) * int4multirange(int4range(0, v.seconds))) AS seconds
        FROM watch_time w JOIN videos v ON v.key = w.video_key AND v.seconds > 0
       WHERE w.user_id = ${input.userId}::int AND w.congress_id = ${input.congressId}::int
         AND w.package_id = ${input.packageId}::int AND w.source = 'player'
       GROUP BY w.video_key, v.seconds
    )
    SELECT coalesce((SELECT sum(seconds) FROM videos), 0)::int AS content_seconds,
      (SELECT count(*) FILTER (WHERE seconds IS NULL) FROM videos)::int AS unknown_videos,
      coalesce((SELECT sum(seconds) FROM watched), 0)::int AS attended_seconds`);
  const row = result.rows[0];
  return {
    contentSeconds: row?.content_seconds ?? 0,
    attendedSeconds: row?.attended_seconds ?? 0,
    unknownVideos: row?.unknown_videos ?? 0,
  };
}
