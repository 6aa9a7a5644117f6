import { type Db, schema } from "@app/db";
import { berlinDate, congressTiming, type IsoDate, MSG_FORTBILDUNG, type ZCongressInput } from "@app/shared";
import { count, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { checkViolation } from "../../lib/db-errors";
import { adminTable } from "../../lib/paging";
import type { ServiceDeps } from "../deps";
import { deleteAudited, saveAudited } from "./audited-rows";

const { congresses, congressPackages, participations } = schema;

/**
 * The events table's rows: every event with its participation count and its number of packages (the form
 * warns of a ticket-and-package id without a package), newest first.
 */
function congressRows(db: Db) {
  return db
    .select({
      congress: congresses,
      participationCount: count(participations.id),
      packageCount: sql<number>`(SELECT count(*)::int FROM ${congressPackages} WHERE ${congressPackages.congressId} = ${congresses.id})`,
    })
    .from(congresses)
    .leftJoin(participations, eq(participations.congressId, congresses.id))
    .groupBy(congresses.id)
    .orderBy(desc(congresses.createdAt), desc(congresses.id))
    .$dynamic();
}

type CongressRow = Awaited<ReturnType<typeof congressRows>>[number];
const withCount = ({ congress, participationCount, packageCount }: CongressRow) => ({
  ...congress,
  participationCount,
  packageCount,
});

const congressTable = adminTable(congresses, congressRows, withCount);

/** An event of the admin's lists with the spec's `inProgress`, `inFuture`, `inPast` of today, as a visitor's. */
const withTiming =
  (today: IsoDate) =>
  <C extends { firstDay: IsoDate; lastDay: IsoDate | null }>(congress: C) => ({
    ...congress,
    ...congressTiming(congress.firstDay, congress.lastDay, today),
  });

/** Every event with its participation count and timing, newest first (REST, the selects of other tabs). */
export async function listCongresses(ctx: Pick<ServiceDeps, "db" | "clock">) {
  return (await congressTable.list(ctx.db)).map(withTiming(berlinDate(ctx.clock.now())));
}

/** One page of `listCongresses`. */
export async function pageCongresses(ctx: Pick<ServiceDeps, "db" | "clock">, input: { page: number }) {
  const page = await congressTable.page(ctx.db, input);
  return { ...page, items: page.items.map(withTiming(berlinDate(ctx.clock.now()))) };
}

/**
 * The Fortbildung rules the input names (ADR 0105): a field left out (the spec's REST payload) stays as
 * stored, or takes the database's default on a new event.
 */
function fortbildungValues(input: z.output<typeof ZCongressInput>) {
  const given = {
    fortbildung: input.fortbildung,
    vnr: input.vnr,
    fortbildungCategory: input.fortbildungCategory,
    pointsPerDay: input.pointsPerDay,
    requiredPercent: input.requiredPercent,
    presenceChecksPerDay: input.presenceChecksPerDay,
    presenceChecksRequired: input.presenceChecksRequired,
    webinarMinutes: input.webinarMinutes,
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<
    typeof given
  >;
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
    ...fortbildungValues(input),
  };
  try {
    return await saveAudited(db, "congress", { id: input.id, values, actorId });
  } catch (error) {
    // only one of the two counts sent (a REST payload): the other one stored makes them disagree
    if (checkViolation(error, "congresses_presence_checks_range")) {
      throw new AppError(
        "BAD_REQUEST",
        "presence checks required > asked",
        MSG_FORTBILDUNG.checksMoreThanAsked,
      );
    }
    throw error;
  }
}

/** Deletes an event with its contents, packages and participations; refused while orders exist. */
export function deleteCongress(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  return deleteAudited(db, "congress", { id, actorId });
}
