import { type DbOrTx, schema } from "@app/db";
import {
  berlinInstant,
  type IsoDate,
  MSG_REPORT,
  REPORT_VIDEO_KEY,
  type ReportApplied,
  type ReportPerson,
  type ReportPreview,
  type ReportUnmatched,
} from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../../../lib/app-error";
import { positionsLiteral } from "../../attendance/watch-time";
import type { ServiceDeps } from "../../deps";
import { recordAudit } from "../audit";
import { mergeByPerson, type PersonRows, rangesSeconds } from "./merge";
import { parseReport } from "./parse";

export interface ReportUpload {
  file: Blob;
  fileName: string;
  congressId: number;
  day: IsoDate;
}

interface Account {
  id: number;
  email: string;
  name: string;
  registered: boolean;
  /** seconds earlier reports credited this person on the day */
  creditedSeconds: number;
  /** seconds the union with this report would hold */
  unionSeconds: number;
}

/** The event's day range, or a refusal when the event is missing or the day is not one of its days. */
async function checkDay(db: DbOrTx, congressId: number, day: IsoDate): Promise<void> {
  const [congress] = await db
    .select({ firstDay: schema.congresses.firstDay, lastDay: schema.congresses.lastDay })
    .from(schema.congresses)
    .where(eq(schema.congresses.id, congressId));
  if (!congress) {
    throw new AppError("NOT_FOUND", `congress ${congressId} missing`, MSG_REPORT.congressMissing);
  }
  if (day < congress.firstDay || day > (congress.lastDay ?? congress.firstDay)) {
    throw new AppError(
      "BAD_REQUEST",
      `day ${day} not of congress ${congressId}`,
      MSG_REPORT.dayNotOfCongress,
    );
  }
}

/**
 * The accounts of the report's addresses (case-insensitive, deleted accounts never), whether each has
 * signed up for the event, and what the report source credited them on the day before and with this
 * report: one statement over the addresses and their ranges.
 */
async function accountsOf(
  db: DbOrTx,
  congressId: number,
  day: IsoDate,
  people: PersonRows[],
): Promise<Map<string, Account>> {
  if (people.length === 0) {
    return new Map();
  }
  const result = await db.execute<{
    email: string;
    id: number;
    name: string;
    registered: boolean;
    credited: number;
    united: number;
  }>(sql`
    SELECT r.email, u.id, u.firstname || ' ' || u.lastname AS name,
      EXISTS (SELECT 1 FROM participations p WHERE p.user_id = u.id AND p.congress_id = ${congressId}) AS registered,
      coalesce(w.seconds, 0) AS credited,
      multirange_seconds(coalesce(w.played, '{}') + r.played::int4multirange) AS united
    FROM unnest(${sql.param(people.map((p) => p.email))}::text[],
      ${sql.param(people.map((p) => positionsLiteral(p.ranges)))}::text[])
      AS r(email, played)
    JOIN users u ON lower(u.email) = r.email AND u.deleted_at IS NULL
    LEFT JOIN watch_time w ON w.user_id = u.id AND w.congress_id = ${congressId} AND w.day = ${day}::date
      AND w.video_key = ${REPORT_VIDEO_KEY} AND w.source = 'report'`);
  return new Map(
    result.rows.map((row) => [
      row.email,
      {
        id: row.id,
        email: row.email,
        name: row.name.trim(),
        registered: row.registered,
        creditedSeconds: row.credited,
        unionSeconds: row.united,
      },
    ]),
  );
}

interface Reading {
  preview: ReportPreview;
  /** the matched people with their ranges, to write */
  matched: Array<{ account: Account; person: PersonRows }>;
}

/** Parses the report and matches its people: everything a preview shows and applying writes. */
async function read(db: DbOrTx, input: ReportUpload): Promise<Reading> {
  await checkDay(db, input.congressId, input.day);
  const rows = parseReport(Buffer.from(await input.file.arrayBuffer()), input.day);
  const people = mergeByPerson(rows, input.day);
  const accounts = await accountsOf(db, input.congressId, input.day, people);
  const midnight = berlinInstant(input.day).getTime();
  const at = (second: number) => new Date(midnight + second * 1000);
  const unmatched: ReportUnmatched[] = rows
    .filter((row) => row.email === "")
    .map((row) => ({ line: row.line, name: row.name, email: "", reason: "noEmail" }));
  const matched: Reading["matched"] = [];
  const shown: ReportPerson[] = [];
  for (const person of people) {
    const account = accounts.get(person.email);
    const line = person.lines[0] ?? 0;
    if (!account) {
      unmatched.push({ line, name: person.name, email: person.email, reason: "unknown" });
      continue;
    }
    if (person.ranges.length === 0) {
      unmatched.push({ line, name: person.name, email: person.email, reason: "outsideDay" });
      continue;
    }
    matched.push({ account, person });
    shown.push({
      userId: account.id,
      email: account.email,
      name: account.name,
      reportName: person.name,
      registered: account.registered,
      rows: person.lines.length,
      intervals: person.ranges.map((r) => ({ from: at(r.start), to: at(r.end) })),
      minutes: Math.floor(rangesSeconds(person.ranges) / 60),
      newMinutes: Math.floor(account.unionSeconds / 60) - Math.floor(account.creditedSeconds / 60),
    });
  }
  shown.sort((a, b) => a.email.localeCompare(b.email));
  unmatched.sort((a, b) => a.line - b.line);
  return {
    preview: { congressId: input.congressId, day: input.day, rows: rows.length, people: shown, unmatched },
    matched,
  };
}

/** What a report would credit, without writing anything. */
export async function previewReport(db: DbOrTx, input: ReportUpload): Promise<ReportPreview> {
  return (await read(db, input)).preview;
}

/**
 * Applies a report (ADR 0107): in one transaction, each matched person's ranges join (multirange
 * union) the day's `report` watch time of the event's webinar; a row the report adds nothing to is not
 * touched. The audit log records the import when it changed something; the same file again changes
 * nothing and records nothing.
 */
export async function applyReport(
  deps: Pick<ServiceDeps, "db" | "clock">,
  input: ReportUpload & { actorId: number },
): Promise<ReportApplied> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { matched, preview } = await read(tx, input);
    if (matched.length === 0) {
      return { people: 0, minutes: 0 };
    }
    const result = await tx.execute<{ before: number; after: number }>(sql`
      WITH old AS (
        SELECT user_id, seconds FROM watch_time
        WHERE congress_id = ${input.congressId} AND day = ${input.day}::date
          AND video_key = ${REPORT_VIDEO_KEY} AND source = 'report'
      ), written AS (
        INSERT INTO watch_time AS w (user_id, congress_id, day, video_key, source, played, seconds, updated_at)
        SELECT r.user_id, ${input.congressId}::int, ${input.day}::date, ${REPORT_VIDEO_KEY}, 'report',
          r.played::int4multirange, multirange_seconds(r.played::int4multirange), ${now}::timestamptz
        FROM unnest(${sql.param(matched.map((m) => m.account.id))}::int[],
          ${sql.param(matched.map((m) => positionsLiteral(m.person.ranges)))}::text[]) AS r(user_id, played)
        ON CONFLICT (user_id, congress_id, day, video_key, source) DO UPDATE SET
          played = w.played + excluded.played,
          seconds = multirange_seconds(w.played + excluded.played),
          updated_at = excluded.updated_at
        WHERE NOT (excluded.played <@ w.played)
        RETURNING user_id, seconds
      )
      SELECT coalesce(old.seconds, 0) AS before, written.seconds AS after
      FROM written LEFT JOIN old USING (user_id)`);
    const people = result.rows.length;
    if (people === 0) {
      return { people: 0, minutes: 0 };
    }
    const minutes = result.rows.reduce(
      (sum, row) => sum + Math.floor(row.after / 60) - Math.floor(row.before / 60),
      0,
    );
    await recordAudit(tx, {
      actor: { kind: "admin", id: input.actorId },
      action: "watch-time.import",
      entity: "congress",
      entityId: input.congressId,
      changes: {
        day: input.day,
        fileName: input.fileName.slice(0, 200),
        reportRows: preview.rows,
        accounts: people,
        minutesAdded: minutes,
        unmatchedRows: preview.unmatched.length,
      },
    });
    return { people, minutes };
  });
}
