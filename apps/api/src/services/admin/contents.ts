import { type Db, schema } from "@app/db";
import type { ZContentInput } from "@app/shared";
import { desc, eq, ilike, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { containsPattern } from "../../lib/like";
import { adminActor, changedFields, createdFields, deletedFields, recordAudit } from "./audit";

const { congressContents, congresses } = schema;
const NOT_FOUND = "Der Kongressinhalt wurde nicht gefunden.";

export type ContentInput = z.output<typeof ZContentInput>;

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

export async function saveContent(db: Db, input: ContentInput, actorId: number) {
  const [congress] = await db
    .select({ id: congresses.id })
    .from(congresses)
    .where(eq(congresses.id, input.congress));
  if (!congress) {
    throw new AppError(
      "BAD_REQUEST",
      `congress ${input.congress} missing`,
      "Bitte wählen Sie eine Veranstaltung.",
    );
  }
  const values = { congressId: input.congress, type: input.type, data: input.data };
  return db.transaction(async (tx) => {
    const id = input.id;
    const [before] = id
      ? await tx.select().from(congressContents).where(eq(congressContents.id, id)).for("update")
      : [];
    const [saved] = id
      ? await tx.update(congressContents).set(values).where(eq(congressContents.id, id)).returning()
      : await tx.insert(congressContents).values(values).returning();
    if (!saved) {
      throw new AppError("NOT_FOUND", `content ${input.id}`, NOT_FOUND);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: before ? "content.save" : "content.create",
      entity: "content",
      entityId: saved.id,
      changes: before ? changedFields(before, values) : createdFields(values),
    });
    return saved;
  });
}

/** The spec's REST answer to saving content: the list of congresses. */
export async function deleteContent(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(congressContents).where(eq(congressContents.id, id)).returning();
    if (!deleted) {
      throw new AppError("NOT_FOUND", `content ${id}`, NOT_FOUND);
    }
    const changes = deletedFields(deleted, ["congressId", "type"]);
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "content.delete",
      entity: "content",
      entityId: id,
      changes,
    });
  });
  return { id };
}
