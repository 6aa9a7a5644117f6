import { type Db, schema } from "@app/db";
import { MSG, MSG_ADMIN, type ZCongressInput } from "@app/shared";
import { count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation } from "../../lib/db-errors";
import { adminActor, changedFields, createdFields, deletedFields, recordAudit } from "./audit";

const { congresses, participations } = schema;

const NOT_FOUND = "Die Veranstaltung wurde nicht gefunden.";

export type CongressInput = z.output<typeof ZCongressInput>;

/** Every event with its participation count, newest first (the admin's events table). */
export async function listCongresses(db: Db) {
  const rows = await db
    .select({ congress: congresses, participationCount: count(participations.id) })
    .from(congresses)
    .leftJoin(participations, eq(participations.congressId, congresses.id))
    .groupBy(congresses.id)
    .orderBy(desc(congresses.createdAt), desc(congresses.id));
  return rows.map(({ congress, participationCount }) => ({ ...congress, participationCount }));
}

/** Creates or updates an event; `picture` is a stored image's file name (see images.ts) or null. */
export async function saveCongress(db: Db, input: CongressInput, actorId: number) {
  const values = {
    title: input.title,
    description: input.description,
    picture: input.picture ?? null,
    webinar: input.webinar,
    webinarUrl: input.webinarUrl ?? null,
    webinarStartTime: input.webinarStartTime ?? null,
    visible: input.visible,
    firstDay: input.firstCongressDay?.date ?? "",
    lastDay: input.lastCongressDay?.date ?? null,
    digistoreIdTicket: input.digistoreIdTicket,
    digistoreIdTicketAndPackage: input.digistoreIdTicketAndPackage,
    extraParameters: input.extraParameters,
  };
  return db.transaction(async (tx) => {
    const id = input.id;
    const [before] = id ? await tx.select().from(congresses).where(eq(congresses.id, id)).for("update") : [];
    const [saved] = id
      ? await tx.update(congresses).set(values).where(eq(congresses.id, id)).returning()
      : await tx.insert(congresses).values(values).returning();
    if (!saved) {
      throw new AppError("NOT_FOUND", `congress ${input.id}`, NOT_FOUND);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: before ? "congress.save" : "congress.create",
      entity: "congress",
      entityId: saved.id,
      changes: before ? changedFields(before, values) : createdFields(values),
    });
    return saved;
  });
}

/** Deletes an event with its contents, packages and participations; refused while orders exist. */
export async function deleteCongress(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  try {
    await db.transaction(async (tx) => {
      const [deleted] = await tx.delete(congresses).where(eq(congresses.id, id)).returning();
      if (!deleted) {
        throw new AppError("NOT_FOUND", `congress ${id}`, NOT_FOUND);
      }
      const changes = deletedFields(deleted, ["title", "firstDay", "lastDay"]);
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: "congress.delete",
        entity: "congress",
        entityId: id,
        changes,
      });
    });
  } catch (error) {
    if (foreignKeyViolation(error)) {
      throw new AppError(
        "CONFLICT",
        `congress ${id} has orders`,
        MSG_ADMIN.eventHasOrders,
        MSG.adminDeleteFailedTitle,
      );
    }
    throw error;
  }
  return { id };
}
