import { type Db, schema } from "@app/db";
import type { ZPackageInput } from "@app/shared";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { deleteAudited, requireCongress, saveAudited } from "./audited-rows";

const { congressPackages, congresses } = schema;
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

export async function savePackage(db: Db, input: z.output<typeof ZPackageInput>, actorId: number) {
  await requireCongress(db, input.congress);
  const values = {
    name: input.name,
    description: input.description,
    picture: input.picture ?? null,
    congressId: input.congress,
    externalId: input.externalId,
    availabilityDate: input.availabilityDate ?? null,
    extraParameters: input.extraParameters,
  };
  return saveAudited(db, "package", { id: input.id, values, actorId });
}

/** Deletes a package; refused while orders exist. */
export function deletePackage(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  return deleteAudited(db, "package", { id, actorId });
}
