import { type Db, schema } from "@app/db";
import type { ZContentInput } from "@app/shared";
import { desc, eq, ilike, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { containsPattern } from "../../lib/like";
import { deleteAudited, requireCongress, saveAudited } from "./audited-rows";

const { congressContents, congresses } = schema;
/**
 * The video contents with their event's title, newest first; `search` finds text in the title, the day
 * names and the video comments (case-insensitive).
 */
export async function listContents(db: Db, search = "") {
  const pattern = containsPattern(search);
  const where = search
    ? or(
        ilike(congresses.title, pattern),
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${congressContents.data} -> 'days') d
             WHERE lower(d ->> 'name') LIKE ${pattern}
                OR EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(d -> 'videos', '[]'::jsonb)) v
                           WHERE lower(v ->> 'comment') LIKE ${pattern}))`,
      )
    : undefined;
  const rows = await db
    .select({ content: congressContents, congressTitle: congresses.title })
    .from(congressContents)
    .innerJoin(congresses, eq(congresses.id, congressContents.congressId))
    .where(where)
    .orderBy(desc(congressContents.updatedAt), desc(congressContents.id));
  return rows.map(({ content, congressTitle }) => ({
    id: content.id,
    type: content.type,
    data: content.data,
    congress: { id: content.congressId, title: congressTitle },
  }));
}

export async function saveContent(db: Db, input: z.output<typeof ZContentInput>, actorId: number) {
  await requireCongress(db, input.congress);
  const values = { congressId: input.congress, type: input.type, data: input.data };
  return saveAudited(db, "content", { id: input.id, values, actorId });
}

/** Deletes a content (nothing refers to one). */
export function deleteContent(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  return deleteAudited(db, "content", { id, actorId });
}
