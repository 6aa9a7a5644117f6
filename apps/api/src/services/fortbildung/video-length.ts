import { MAX_MEDIA_SECONDS } from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import type { Param } from "../../lib/prepared-statement";

/**
 * Which length of a video counts (decision 105): the organiser's, typed in the video content
 * (`congress_contents.data.days[].videos[].duration`, whole seconds), else the one Vimeo's oEmbed told
 * (`video_previews.duration_seconds` > 0), else none (NULL): a private or domain-restricted video answers
 * oEmbed without a length, a live stream with 0. The rule lives here once, in SQL, for every statement that
 * needs a length: a day's content (`facts.ts`), a presence check's window, a recording's learning check and
 * the heartbeat that clips a recording's positions to its length. A length says how long a video is, not
 * how it is credited: for a live stream the organiser types its planned duration, so the day's content
 * holds it, while its viewers are still credited by the clock (its seconds since midnight must not be
 * clipped to that length).
 */

/**
 * The organiser's length of one content video `video` (a jsonb element of a day's `videos`) in whole
 * seconds, or NULL: none given, or not a positive number (the form only saves 1 s to 24 h; anything else in
 * the JSON, e.g. from an import, is no length rather than an error). Nested CASEs, as SQL does not promise
 * to test `jsonb_typeof` before the cast.
 */
export function organiserSeconds(video: SQL): SQL<number | null> {
  return sql<number | null>`(CASE WHEN jsonb_typeof(${video}->'duration') = 'number' THEN
    CASE WHEN (${video}->>'duration')::numeric >= 1
      THEN least(round((${video}->>'duration')::numeric), ${MAX_MEDIA_SECONDS}::int)::int END END)`;
}

/** A value of the statement: a JS value or a prepared statement's placeholder, or a SQL expression. */
type Value<T> = Param<T> | SQL;

/**
 * The length in seconds of the video `url` of congress `congressId`, as one SQL value (NULL: unknown). The
 * longest of the organiser's lengths of that address in the congress's contents (one address is one video,
 * whichever day lists it), else Vimeo's from the preview whose key (`previewKey(url)`) is `key`. Takes JS
 * values, placeholders (`preparedStatement`) or SQL expressions (a column of the surrounding statement).
 */
export function videoSeconds(
  congressId: Value<number>,
  url: Value<string>,
  key: Value<string>,
): SQL<number | null> {
  return sql<number | null>`coalesce(
    (SELECT max(${organiserSeconds(sql`lv`)})
       FROM congress_contents lc
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(lc.data->'days', '[]'::jsonb)) ld
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(ld->'videos', '[]'::jsonb)) lv
      WHERE lc.congress_id = ${congressId}::int AND lv->>'url' = ${url}::text),
    (SELECT lp.duration_seconds FROM video_previews lp WHERE lp.key = ${key}::text AND lp.duration_seconds > 0))`;
}

/**
 * Whether the video `url` of congress `congressId` is a live stream (decision 126), as one SQL boolean: the
 * organiser marked it so in a content of the congress (`live: true`), or Vimeo's oEmbed said so (duration 0,
 * `video_previews.live`). A live stream is credited by the clock whatever its length; any other video with
 * a length is a recording.
 */
export function videoIsLive(congressId: Value<number>, url: Value<string>, key: Value<string>): SQL<boolean> {
  return sql<boolean>`(EXISTS (SELECT 1 FROM video_previews lp WHERE lp.key = ${key}::text AND lp.live)
    OR EXISTS (SELECT 1 FROM congress_contents lc
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(lc.data->'days', '[]'::jsonb)) ld
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(ld->'videos', '[]'::jsonb)) lv
      WHERE lc.congress_id = ${congressId}::int AND lv->>'url' = ${url}::text AND lv->'live' = 'true'::jsonb))`;
}
