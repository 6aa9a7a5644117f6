import { MAX_MEDIA_SECONDS } from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import type { Param } from "../../lib/prepared-statement";

/**
 * Which length of a video counts (ADR 0105): the organiser's, typed in the video content
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

/** The content videos of address `url` in congress `congressId`'s contents, each as `lv`. */
const contentVideos = (congressId: Value<number>, url: Value<string>) => sql`congress_contents lc
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(lc.data->'days', '[]'::jsonb)) ld
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(ld->'videos', '[]'::jsonb)) lv
      WHERE lc.congress_id = ${congressId}::int AND lv->>'url' = ${url}::text`;

/**
 * What is known of the video `url` of congress `congressId`, as a one-row table of `length` and `live`, read
 * with one walk of the congress's contents and one preview. `length` in seconds (NULL: unknown): the longest
 * of the organiser's lengths of that address in the congress's contents (one address is one video,
 * whichever day lists it), else Vimeo's from the preview whose key (`previewKey(url)`) is `key`. `live`
 * (ADR 0126): the organiser marked it so in a content of the congress (`live: true`), or Vimeo's oEmbed
 * said so (duration 0, `video_previews.live`); a live stream is credited by the clock whatever its length,
 * any other video with a length is a recording. Takes JS values, placeholders (`preparedStatement`) or SQL
 * expressions (a column of the surrounding statement).
 */
export function videoFacts(congressId: Value<number>, url: Value<string>, key: Value<string>): SQL {
  return sql`(SELECT coalesce(o.seconds, CASE WHEN lp.duration_seconds > 0 THEN lp.duration_seconds END) AS length,
      coalesce(o.live, false) OR coalesce(lp.live, false) AS live
    FROM (SELECT max(${organiserSeconds(sql`lv`)}) AS seconds, bool_or(lv->'live' = 'true'::jsonb) AS live
      FROM ${contentVideos(congressId, url)}) o
    LEFT JOIN video_previews lp ON lp.key = ${key}::text)`;
}

/** The length of `videoFacts` as one SQL value (NULL: unknown). */
export function videoSeconds(
  congressId: Value<number>,
  url: Value<string>,
  key: Value<string>,
): SQL<number | null> {
  return sql<number | null>`(SELECT lf.length FROM ${videoFacts(congressId, url, key)} lf)`;
}
