import { type Db, schema } from "@app/db";
import type { ZContentInput, ZContentPageInput } from "@app/shared";
import { desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { containsPattern } from "../../lib/like";
import { adminTable } from "../../lib/paging";
import { deleteAudited, requireCongress, saveAudited } from "./audited-rows";

const { congressContents, congresses } = schema;
/**
 * The contents table's search: text in the event's title, a day's name or a video's comment (any case). It
 * reads only `congress_contents` (the title through a subquery), so the page's count needs no join.
 */
function contentSearch(db: Db, search: string): SQL | undefined {
  if (!search) {
    return undefined;
  }
  const pattern = containsPattern(search);
  return or(
    inArray(
      congressContents.congressId,
      db.select({ id: congresses.id }).from(congresses).where(ilike(congresses.title, pattern)),
    ),
    sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${congressContents.data} -> 'days') d
         WHERE lower(d ->> 'name') LIKE ${pattern}
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(d -> 'videos', '[]'::jsonb)) v
                       WHERE lower(v ->> 'comment') LIKE ${pattern}))`,
  );
}

/** The contents table's rows matching `where`, with their event's title, last changed first. */
function contentRows(db: Db, where: SQL | undefined) {
  return db
    .select({ content: congressContents, congressTitle: congresses.title })
    .from(congressContents)
    .innerJoin(congresses, eq(congresses.id, congressContents.congressId))
    .where(where)
    .orderBy(desc(congressContents.updatedAt), desc(congressContents.id))
    .$dynamic();
}

type ContentRow = Awaited<ReturnType<typeof contentRows>>[number];
const asAdminContent = ({ content, congressTitle }: ContentRow) => ({
  id: content.id,
  type: content.type,
  data: content.data,
  congress: { id: content.congressId, title: congressTitle },
});

const contentTable = adminTable(congressContents, contentRows, asAdminContent);

/** Every content matching `search` (see `contentSearch`), last changed first (REST). */
export function listContents(db: Db, search = "") {
  return contentTable.list(db, contentSearch(db, search));
}

/** One page of the admin's contents table, searched and ordered as `listContents`. */
export function pageContents(db: Db, input: z.output<typeof ZContentPageInput>) {
  return contentTable.page(db, input, contentSearch(db, input.search));
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
