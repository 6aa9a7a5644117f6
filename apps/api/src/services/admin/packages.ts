import { type Db, schema } from "@app/db";
import type { ZPackageInput } from "@app/shared";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { adminTable } from "../../lib/paging";
import { deleteAudited, requireCongress, saveAudited } from "./audited-rows";

const { congressPackages, congresses } = schema;
/** The packages table's rows: every package with its event's title, newest first. */
function packageRows(db: Db) {
  return db
    .select({ pkg: congressPackages, congressTitle: congresses.title })
    .from(congressPackages)
    .innerJoin(congresses, eq(congresses.id, congressPackages.congressId))
    .orderBy(desc(congressPackages.createdAt), desc(congressPackages.id))
    .$dynamic();
}

type PackageRow = Awaited<ReturnType<typeof packageRows>>[number];
const withCongress = ({ pkg, congressTitle }: PackageRow) => ({
  ...pkg,
  congress: { id: pkg.congressId, title: congressTitle },
});

/**
 * Every package with its event's title, newest first: the whole list (REST, the selects of other tabs) or
 * one page.
 */
const packageTable = adminTable(congressPackages, packageRows, withCongress);
export const listAllPackages = packageTable.list;
export const pagePackages = packageTable.page;

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
