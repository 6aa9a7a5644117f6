import { type DbOrTx, schema } from "@app/db";
import { type AttendanceSource, berlinDate, type IsoDate, MSG_ATTENDANCE } from "@app/shared";
import { asc, eq, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { deathCongressClosedUntil, findPackage } from "../visitor/packages";
import { loadViewer, type ViewerDeps } from "../visitor/viewer";
import { congressAccess, staffList } from "./access";

const { attendances, congresses } = schema;

export interface RecordInput {
  /** the signed-in visitor */
  userId: number;
  congressId: number;
  source: AttendanceSource;
  packageId?: number | undefined;
}

type RecordCtx = ViewerDeps;

function refuse(reason: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `attendance refused: ${reason}`,
    MSG_ATTENDANCE.refused,
    MSG_ATTENDANCE.refusedTitle,
    reason,
  );
}

/**
 * The attendance of a running event, for the opening rush: the access rules of the event content (active
 * account, visible, running today in Berlin, participating, paid ticket if ticketed) and the insert are one
 * statement, without reading first. Staff may open everything but are not counted outside those rules.
 */
async function recordCongressAttendance(
  ctx: RecordCtx,
  input: RecordInput,
  today: IsoDate,
): Promise<boolean> {
  const result = await ctx.db.execute<{ active: boolean; allowed: boolean; inserted: boolean }>(sql`
    WITH ${congressAccess(staffList(ctx.env), input, today)}, inserted AS (
      INSERT INTO attendances (user_id, congress_id, day, source)
      SELECT user_id, id, ${today}::date, ${input.source} FROM target WHERE counts
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM viewer) AS active,
      EXISTS (SELECT 1 FROM target WHERE counts OR staff) AS allowed,
      EXISTS (SELECT 1 FROM inserted) AS inserted`);
  const row = result.rows[0];
  if (!row?.active) {
    throw new AppError("UNAUTHORIZED", `user ${input.userId} missing or inactive`);
  }
  if (!row.allowed) {
    throw refuse("congress");
  }
  return row.inserted;
}

/** A video of a package page: the package's rules (paid or unlocked, available today), then one insert. */
async function recordPackageAttendance(
  ctx: RecordCtx,
  input: RecordInput & { packageId: number },
  today: IsoDate,
): Promise<boolean> {
  const viewer = await loadViewer(ctx, input.userId);
  const view = await findPackage(ctx, viewer, input.packageId);
  const open =
    view.openable &&
    view.congress.id === input.congressId &&
    input.source === "video" &&
    !deathCongressClosedUntil(ctx, viewer, input.packageId);
  if (!open) {
    throw refuse("package");
  }
  const rows = await ctx.db
    .insert(attendances)
    .values({ userId: viewer.id, congressId: input.congressId, day: today, source: input.source })
    .onConflictDoNothing()
    .returning({ day: attendances.day });
  return rows.length > 0;
}

/**
 * Records that the visitor opened a video or the webinar link today (Berlin), once per user, event and
 * day. Returns whether this call was the first of the day.
 */
export async function recordAttendance(ctx: RecordCtx, input: RecordInput): Promise<{ recorded: boolean }> {
  const today = berlinDate(ctx.clock.now());
  const recorded =
    input.packageId === undefined
      ? await recordCongressAttendance(ctx, input, today)
      : await recordPackageAttendance(ctx, { ...input, packageId: input.packageId }, today);
  return { recorded };
}

export interface CongressAttendance {
  congressId: number;
  title: string;
  days: IsoDate[];
}

/** Per event the days `userId` attended, newest event first; scoped to that user inside the query. */
export async function attendanceOfUser(db: DbOrTx, userId: number): Promise<CongressAttendance[]> {
  const rows = await db
    .select({ congressId: attendances.congressId, title: congresses.title, day: attendances.day })
    .from(attendances)
    .innerJoin(congresses, eq(congresses.id, attendances.congressId))
    .where(eq(attendances.userId, userId))
    .orderBy(asc(congresses.firstDay), asc(congresses.id), asc(attendances.day));
  const byCongress = new Map<number, CongressAttendance>();
  for (const row of rows) {
    const entry = byCongress.get(row.congressId) ?? {
      congressId: row.congressId,
      title: row.title,
      days: [],
    };
    entry.days.push(row.day);
    byCongress.set(row.congressId, entry);
  }
  return [...byCongress.values()].reverse();
}
