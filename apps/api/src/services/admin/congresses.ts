import { type Db, schema } from "@app/db";
import type { ZCongressInput, ZPageInput } from "@app/shared";
import { count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { adminPage } from "../../lib/paging";
import { deleteAudited, saveAudited } from "./audited-rows";

const { congresses, participations } = schema;

/** The events table's rows: every event with its participation count, newest first. */
function congressRows(db: Db) {
  return db
    .select({ congress: congresses, participationCount: count(participations.id) })
    .from(congresses)
    .leftJoin(participations, eq(participations.congressId, congresses.id))
    .groupBy(congresses.id)
    .orderBy(desc(congresses.createdAt), desc(congresses.id))
    .$dynamic();
}

type CongressRow = Awaited<ReturnType<typeof congressRows>>[number];
const withCount = ({ congress, participationCount }: CongressRow) => ({ ...congress, participationCount });

/** Every event with its participation count, newest first (REST and the selects of other tabs). */
export async function listCongresses(db: Db) {
  return (await congressRows(db)).map(withCount);
}

/** One page of the admin's events table, ordered as `listCongresses`. */
export function pageCongresses(db: Db, input: z.output<typeof ZPageInput>) {
  return adminPage(
    db,
    { table: congresses, where: undefined, page: input.page },
    congressRows(db),
    withCount,
  );
}

/** Creates or updates an event; `picture` is a stored image's file name (see images.ts) or null. */
export async function saveCongress(db: Db, input: z.output<typeof ZCongressInput>, actorId: number) {
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
  return saveAudited(db, "congress", { id: input.id, values, actorId });
}

/** Deletes an event with its contents, packages and participations; refused while orders exist. */
export function deleteCongress(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  return deleteAudited(db, "congress", { id, actorId });
}
