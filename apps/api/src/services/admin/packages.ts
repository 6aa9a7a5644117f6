import { type Db, schema } from "@app/db";
import { MSG, MSG_ADMIN, type ZPackageInput } from "@app/shared";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation } from "./db-errors";

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

export async function savePackage(db: Db, input: PackageInput) {
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
  const [saved] = input.id
    ? await db.update(congressPackages).set(values).where(eq(congressPackages.id, input.id)).returning()
    : await db.insert(congressPackages).values(values).returning();
  if (!saved) {
    throw new AppError("NOT_FOUND", `package ${input.id}`, NOT_FOUND);
  }
  return saved;
}

/** Deletes a package; refused while orders exist. */
export async function deletePackage(db: Db, id: number): Promise<{ id: number }> {
  try {
    const deleted = await db
      .delete(congressPackages)
      .where(eq(congressPackages.id, id))
      .returning({ id: congressPackages.id });
    if (deleted.length === 0) {
      throw new AppError("NOT_FOUND", `package ${id}`, NOT_FOUND);
    }
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
