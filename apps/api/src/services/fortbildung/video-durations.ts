import { berlinDate } from "@app/shared";
import { sql } from "drizzle-orm";
import {
  fetchAndStore,
  PREVIEW_KEY_SQL,
  type PreviewDeps,
  RETRY_FAILED_AFTER_MS,
} from "../visitor/video-preview";
import { organiserSeconds } from "./video-length";

/** Videos one run asks the host about at most (one after another; the next run takes the rest). */
export const DURATIONS_PER_RUN = 200;

/**
 * The videos of Fortbildung events (running or still to come; of one event when `congressId` is given)
 * whose length we do not know yet (ADR 0105): the organiser gave none in the content, and there is no
 * preview yet, or one without a length fetched over an hour ago (a failed fetch, a private video, or a live
 * stream, which becomes a recording with a length once it is over).
 */
async function videosWithoutDuration(ctx: PreviewDeps, congressId: number | undefined) {
  const now = ctx.clock.now();
  const stale = new Date(now.getTime() - RETRY_FAILED_AFTER_MS);
  const result = await ctx.db.execute<{ url: string; key: string }>(sql`
    SELECT DISTINCT v->>'url' AS url, ${PREVIEW_KEY_SQL} AS key
      FROM congresses c
      JOIN congress_contents cc ON cc.congress_id = c.id
      CROSS JOIN LATERAL jsonb_array_elements(coalesce(cc.data->'days', '[]'::jsonb)) d
      CROSS JOIN LATERAL jsonb_array_elements(coalesce(d->'videos', '[]'::jsonb)) v
     WHERE c.fortbildung
       AND coalesce(c.last_day, c.first_day) >= ${berlinDate(now)}::date
       AND (${congressId ?? null}::int IS NULL OR c.id = ${congressId ?? null}::int)
       AND jsonb_typeof(v->'url') = 'string'
       AND v->>'url' ~ 'vimeo\\.com/(video/)?[0-9]+|player\\.vimeo\\.com/video/[0-9]+'
       AND ${organiserSeconds(sql`v`)} IS NULL
       AND NOT EXISTS (
         SELECT 1 FROM video_previews p
          WHERE p.key = ${PREVIEW_KEY_SQL}
            AND (p.duration_seconds IS NOT NULL OR coalesce(p.failed_at, p.fetched_at) > ${stale}::timestamptz))
     LIMIT ${DURATIONS_PER_RUN}`);
  return result.rows;
}

/**
 * Asks Vimeo's oEmbed for the length of every video of Fortbildung events that lacks one, so a day's
 * content is known even when nobody opened the page (ADR 0105). Run by the `video-durations` job every
 * ten minutes and right after an admin saved such an event or its content. Answers how many were asked.
 */
export async function fetchVideoDurations(
  ctx: PreviewDeps,
  options: { congressId?: number } = {},
): Promise<number> {
  const videos = await videosWithoutDuration(ctx, options.congressId);
  for (const { url, key } of videos) {
    await fetchAndStore(ctx, url, key);
  }
  return videos.length;
}

/**
 * After an admin's save: the lengths of the event's videos are fetched in the background, so the answer does
 * not wait for the video host; the job catches up on anything this misses (a restart, a failed fetch).
 */
export function fetchVideoDurationsSoon(ctx: PreviewDeps, congressId: number): void {
  fetchVideoDurations(ctx, { congressId }).catch((error: unknown) =>
    ctx.log.warn({ err: error, congressId }, "video durations not fetched"),
  );
}
