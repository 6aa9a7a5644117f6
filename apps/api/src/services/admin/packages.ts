import { type Db, schema } from "@app/db";
import { MSG, MSG_ADMIN, type ZPackageInput } from "@app/shared";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation } from "../../lib/db-errors";
import { adminActor, changedFields, createdFields, deletedFields, recordAudit } from "./audit";

const { congressPackages, congresses } = schema;
const NOT_FOUND = "Das Kongresspaket wurde nicht gefunden.";

export type PackageInput = z.output<typeof ZPackageInput>;

/** Every package with its event's title, newest first. */
export async function listAllPackages(db: Db) {
  const rows = await db
    .select({ pkg: congressPackages, congressTitle: congresses.title })
    .from(congressPackages)
    .innerJoin(congresses, eq(congresses.id, congressPackages.congressId))
    .orderBy(desc(congressPackages.createdAt), desc(congressPackages.id));
  return rows.map(({ pkg, congressTitle }) => ({
    ...pkg,
    congress: { id: pkg.congressId, title: congressTitle },
  }));
}

export async function savePackage(db: Db, input: PackageInput, actorId: number) {
  const [congress] = await db
    .select({ id: congresses.id })
    .from(congresses)
    .where(eq(congresses.id, input.congress));
  if (!congress) {
    throw new AppError("BAD_REQUEST", `congress ${input.congress} missing`, MSG_ADMIN.congressRequired);
  }
  const values = {
    name: input.name,
    description: input.description,
    picture: input.picture ?? null,
    congressId: input.congress,
    externalId: input.externalId,
    availabilityDate: input.availabilityDate ?? null,
    extraParameters: input.extraParameters,
  };
  return db.transaction(async (tx) => {
    const id = input.id;
    const [before] = id
      ? await tx.select().from(congressPackages).where(eq(congressPackages.id, id)).for("update")
      : [];
    const [saved] = id
      ? await tx.update(congressPackages).set(values).where(eq(congressPackages.id, id)).returning()
      : await tx.insert(congressPackages).values(values).returning();
    if (!saved) {
      throw new AppError("NOT_FOUND", `package ${input.id}`, NOT_FOUND);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: before ? "package.save" : "package.create",
      entity: "package",
      entityId: saved.id,
      changes: before ? changedFields(before, values) : createdFields(values),
    });
    return saved;
  });
}

/** Deletes a package; refused while orders exist. */
export async function deletePackage(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  try {
    await db.transaction(async (tx) => {
      const [deleted] = await tx.delete(congressPackages).where(eq(congressPackages.id, id)).returning();
      if (!deleted) {
        throw new AppError("NOT_FOUND", `package ${id}`, NOT_FOUND);
      }
      const changes = deletedFields(deleted, ["name", "congressId", "externalId"]);
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: "package.delete",
        entity: "package",
        entityId: id,
        changes,
      });
    });
  } catch (error) {
    if (foreignKeyViolation(error)) {
      throw new AppError(
        "CONFLICT",
        `package ${id} has orders`,
        MSG_ADMIN.packageHasOrders,
        MSG.adminDeleteFailedTitle,
      );
    }
    throw error;
  }
  return { id };
}
