import { type Db, type DbOrTx, schema } from "@app/db";
import { MSG, MSG_ADMIN } from "@app/shared";
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation } from "../../lib/db-errors";
import { adminActor, changedFields, createdFields, deletedFields, recordAudit } from "./audit";

/**
 * The writes the admin's events, packages and contents share: create or update one row, delete one row,
 * each in a transaction with its audit entry (changed fields, created values, or the named fields of
 * what was deleted).
 */

type Table = PgTable & { id: PgColumn };
const { congresses, congressPackages, congressContents } = schema;

/**
 * Each kind of row written here: its table (by its name in the audit log), the answer to an id that does
 * not exist (any more), the fields a deletion records, and the answer to deleting a row still referred to
 * (an order; without `inUse` the database's error stands).
 */
const KINDS = {
  congress: {
    table: congresses,
    notFound: "Die Veranstaltung wurde nicht gefunden.",
    deleted: ["title", "firstDay", "lastDay"],
    inUse: MSG_ADMIN.congressHasOrders,
  },
  package: {
    table: congressPackages,
    notFound: "Das Kongresspaket wurde nicht gefunden.",
    deleted: ["name", "congressId", "externalId"],
    inUse: MSG_ADMIN.packageHasOrders,
  },
  content: {
    table: congressContents,
    notFound: "Der Kongressinhalt wurde nicht gefunden.",
    deleted: ["congressId", "type"],
  },
} satisfies Record<string, { table: Table; notFound: string; deleted: string[]; inUse?: string }>;

type Entity = keyof typeof KINDS;
type TableOf<E extends Entity> = (typeof KINDS)[E]["table"];

/** An admin form's event: refused as the admin's input (400) when it does not exist (any more). */
export async function requireCongress(
  db: DbOrTx,
  congressId: number,
  message: string = MSG_ADMIN.congressRequired,
): Promise<void> {
  const { congresses } = schema;
  const [congress] = await db
    .select({ id: congresses.id })
    .from(congresses)
    .where(eq(congresses.id, congressId));
  if (!congress) {
    throw new AppError("BAD_REQUEST", `congress ${congressId} missing`, message);
  }
}

/** Inserts `values` (no `id`) or updates the row `id` with them. */
export async function saveAudited<E extends Entity>(
  db: Db,
  entity: E,
  { id, values, actorId }: { id: number | undefined; values: TableOf<E>["$inferInsert"]; actorId: number },
): Promise<TableOf<E>["$inferSelect"]> {
  const kind = KINDS[entity];
  // drizzle's builders cannot follow a generic table's columns: the row types are the table's own
  const table: Table = kind.table;
  return db.transaction(async (tx) => {
    const [before] = id ? await tx.select().from(table).where(eq(table.id, id)).for("update") : [];
    const [saved] = id
      ? await tx.update(table).set(values).where(eq(table.id, id)).returning()
      : await tx.insert(table).values(values).returning();
    if (!saved) {
      throw new AppError("NOT_FOUND", `${entity} ${id}`, kind.notFound);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: before ? `${entity}.save` : `${entity}.create`,
      entity,
      entityId: saved.id as number,
      changes: before ? changedFields(before, values) : createdFields(values),
    });
    return saved as TableOf<E>["$inferSelect"];
  });
}

/** Deletes the row `id`, recording its kind's `deleted` fields. */
export async function deleteAudited(
  db: Db,
  entity: Entity,
  { id, actorId }: { id: number; actorId: number },
): Promise<{ id: number }> {
  const kind: { table: Table; notFound: string; deleted: string[]; inUse?: string } = KINDS[entity];
  try {
    await db.transaction(async (tx) => {
      const [deleted] = await tx.delete(kind.table).where(eq(kind.table.id, id)).returning();
      if (!deleted) {
        throw new AppError("NOT_FOUND", `${entity} ${id}`, kind.notFound);
      }
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: `${entity}.delete`,
        entity,
        entityId: id,
        changes: deletedFields(deleted, kind.deleted),
      });
    });
  } catch (error) {
    if (kind.inUse && foreignKeyViolation(error)) {
      throw new AppError("CONFLICT", `${entity} ${id} has orders`, kind.inUse, MSG.adminDeleteFailedTitle);
    }
    throw error;
  }
  return { id };
}
