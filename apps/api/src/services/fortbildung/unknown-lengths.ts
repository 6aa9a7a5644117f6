import type { DbOrTx } from "@app/db";
import { type IsoDate, parseGermanDate } from "@app/shared";
import { sql } from "drizzle-orm";
import { PREVIEW_KEY_SQL } from "../visitor/video-preview";
import { videoSeconds } from "./video-length";

/** The videos the section names at most (a content may list thousands); `total` says how many there are. */
export const UNKNOWN_LENGTHS_SHOWN = 100;

export interface UnknownLength {
  /** the content day's name ("Tag 1") */
  dayName: string;
  /** its exclusive date; null: shown on every day of the event */
  date: IsoDate | null;
  /** how the organiser knows the video: its comment, else its address */
  video: string;
  url: string;
}

export interface UnknownLengths {
  total: number;
  videos: UnknownLength[];
}

/**
 * The videos of an event's days whose length is not known (ADR 0105: neither the organiser's nor
 * Vimeo's, `videoSeconds`), in the order of the contents: they are left out of their day's content, and a
 * day without a known length cannot be reached. The days are those the facts count (a content day without a
 * date, or one dated on a day of the event); a webinar with a set length needs no video's length.
 */
export async function unknownLengths(db: DbOrTx, congressId: number): Promise<UnknownLengths> {
  const result = await db.execute<{
    day_name: string | null;
    exclusive_date: string | null;
    url: string;
    comment: string | null;
    total: number;
  }>(sql`
    SELECT d->>'name' AS day_name, d->>'exclusive_date' AS exclusive_date, v->>'url' AS url,
      v->>'comment' AS comment, (count(*) OVER ())::int AS total
      FROM congresses c
      JOIN congress_contents cc ON cc.congress_id = c.id
      CROSS JOIN LATERAL jsonb_array_elements(coalesce(cc.data->'days', '[]'::jsonb)) WITH ORDINALITY AS dd(d, dn)
      CROSS JOIN LATERAL jsonb_array_elements(coalesce(d->'videos', '[]'::jsonb)) WITH ORDINALITY AS vv(v, vn)
     WHERE c.id = ${congressId}::int AND NOT (c.webinar AND c.webinar_minutes IS NOT NULL)
       AND jsonb_typeof(v->'url') = 'string'
       AND (coalesce(d->>'exclusive_date', '') = '' OR d->>'exclusive_date' IN (
         SELECT to_char(g, 'DD.MM.YYYY')
           FROM generate_series(c.first_day, coalesce(c.last_day, c.first_day), interval '1 day') g))
       AND ${videoSeconds(sql`c.id`, sql`v->>'url'`, PREVIEW_KEY_SQL)} IS NULL
     ORDER BY cc.id, dn, vn
     LIMIT ${UNKNOWN_LENGTHS_SHOWN}`);
  return {
    total: result.rows[0]?.total ?? 0,
    videos: result.rows.map((r) => ({
      dayName: r.day_name ?? "",
      date: r.exclusive_date ? parseGermanDate(r.exclusive_date) : null,
      video: r.comment?.trim() || r.url,
      url: r.url,
    })),
  };
}
