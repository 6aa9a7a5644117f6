import type { Db } from "@app/db";
import { berlinDate, type IsoDate } from "@app/shared";
import { sql } from "drizzle-orm";
import type { ServiceDeps } from "../deps";
import { loadFortbildungEvent, participantDays } from "../fortbildung/facts";

/**
 * The organisers' first view: aggregates only, each one statement with its days in Europe/Berlin, so it
 * stays fast on years of data (100,000 users, 1,000,000 participations in `pnpm bench:scale`).
 */

/** The charts cover the last 30 days including today. */
export const DASHBOARD_DAYS = 30;
const UPCOMING_CONGRESSES = 8;

export interface DayCount {
  day: IsoDate;
  count: number;
}

export interface SalesDay {
  day: IsoDate;
  tickets: number;
  packages: number;
}

export interface StatusCounts {
  paid: number;
  canceled: number;
}

export interface UpcomingCongress {
  id: number;
  title: string;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  visible: boolean;
  running: boolean;
  participants: number;
  /** distinct visitors who opened a video or the webinar today (running events only) */
  attendingToday: number;
}

export interface Dashboard {
  from: IsoDate;
  to: IsoDate;
  upcomingCongresses: UpcomingCongress[];
  salesPerDay: SalesDay[];
  /** orders placed in the 30 days by their current status */
  orderStatus: { tickets: StatusCounts; packages: StatusCounts };
  registrationsPerDay: DayCount[];
  attendancePerDay: DayCount[];
  mail: { queued: number; failed: number; sentToday: number };
  /** Fortbildung events of the 30 days up to today: per day so far, how many reached it (ADR 0105) */
  fortbildung: FortbildungCounts[];
}

export interface FortbildungCounts {
  id: number;
  title: string;
  days: { day: IsoDate; listed: number; reached: number }[];
}

/** Fortbildung events shown on the dashboard at most (each is one statement of its own). */
const FORTBILDUNG_EVENTS = 5;

/** Per day so far of the Fortbildung events running or held in the range: participants and those who reached it. */
async function fortbildungCounts(db: Db, from: IsoDate, today: IsoDate): Promise<FortbildungCounts[]> {
  const events = await db.execute<{ id: number }>(sql`
    SELECT id FROM congresses
     WHERE fortbildung AND first_day <= ${today}::date AND coalesce(last_day, first_day) >= ${from}::date
     ORDER BY first_day DESC, id DESC LIMIT ${FORTBILDUNG_EVENTS}`);
  return Promise.all(
    events.rows.map(async ({ id }) => {
      const event = await loadFortbildungEvent(db, id);
      const rows = await participantDays(db, event);
      const days = new Map<IsoDate, { day: IsoDate; listed: number; reached: number }>();
      for (const row of rows) {
        if (row.day <= today) {
          const counts = days.get(row.day) ?? { day: row.day, listed: 0, reached: 0 };
          counts.listed += 1;
          counts.reached += row.outcome.reached ? 1 : 0;
          days.set(row.day, counts);
        }
      }
      return { id, title: event.title, days: [...days.values()] };
    }),
  );
}

/** The Berlin calendar day of a timestamp column, as SQL. */
const berlinDay = (column: string) => sql.raw(`(${column} AT TIME ZONE 'Europe/Berlin')::date`);

/** Counts per Berlin day of `from`..`to` (every day present, zero when nothing happened). */
async function perDay(
  db: Db,
  from: IsoDate,
  to: IsoDate,
  counted: ReturnType<typeof sql>,
): Promise<DayCount[]> {
  const result = await db.execute<{ day: string; count: number }>(sql`
    WITH counted AS (${counted})
    SELECT d::date::text AS day, coalesce(c.count, 0)::int AS count
      FROM generate_series(${from}::date, ${to}::date, interval '1 day') AS d
      LEFT JOIN counted c ON c.day = d::date
     ORDER BY d`);
  return result.rows.map((row) => ({ day: row.day as IsoDate, count: Number(row.count) }));
}

export async function loadDashboard({ db, clock }: Pick<ServiceDeps, "db" | "clock">): Promise<Dashboard> {
  const today = berlinDate(clock.now());
  const to = today;
  const fromDate = new Date(`${today}T00:00:00Z`);
  fromDate.setUTCDate(fromDate.getUTCDate() - (DASHBOARD_DAYS - 1));
  const from = fromDate.toISOString().slice(0, 10) as IsoDate;
  // timestamps from the first Berlin midnight of the range on (index range scans on created_at)
  const since = sql`(${from}::date::timestamp AT TIME ZONE 'Europe/Berlin')`;

  const days = (counted: ReturnType<typeof sql>) => perDay(db, from, to, counted);
  /** rows of `table` created per Berlin day of the range that match `where` */
  const createdPerDay = (table: string, where: string) =>
    days(sql`SELECT ${berlinDay("created_at")} AS day, count(*) AS count FROM ${sql.raw(table)}
              WHERE created_at >= ${since} AND ${sql.raw(where)} GROUP BY 1`);

  const [tickets, packages, registrations, attendance, upcoming, statuses, mail, fortbildung] =
    await Promise.all([
      createdPerDay("congress_ticket_orders", "status = 'paid'"),
      createdPerDay("congress_package_orders", "status = 'paid'"),
      createdPerDay("users", "deleted_at IS NULL"),
      days(
        sql`SELECT day, count(DISTINCT user_id) AS count FROM attendances WHERE day >= ${from}::date GROUP BY 1`,
      ),
      db.execute<{
        id: number;
        title: string;
        first_day: string;
        last_day: string | null;
        visible: boolean;
        participants: number;
        attending_today: number;
      }>(sql`
      SELECT c.id, c.title, c.first_day, c.last_day, c.visible,
             (SELECT count(*) FROM participations p WHERE p.congress_id = c.id)::int AS participants,
             (SELECT count(*) FROM attendances a WHERE a.congress_id = c.id AND a.day = ${today}::date)::int
               AS attending_today
        FROM congresses c
       WHERE coalesce(c.last_day, c.first_day) >= ${today}::date
       ORDER BY c.first_day, c.id
       LIMIT ${UPCOMING_CONGRESSES}`),
      db.execute<{ kind: string; status: string; count: number }>(sql`
      SELECT 'tickets' AS kind, status, count(*)::int AS count FROM congress_ticket_orders
       WHERE created_at >= ${since} GROUP BY status
      UNION ALL
      SELECT 'packages', status, count(*)::int FROM congress_package_orders
       WHERE created_at >= ${since} GROUP BY status`),
      db.execute<{ queued: number; failed: number; sent_today: number }>(sql`
      SELECT (SELECT count(*) FROM mail_outbox WHERE status = 'queued')::int AS queued,
             (SELECT count(*) FROM mail_outbox WHERE status = 'failed')::int AS failed,
             (SELECT count(*) FROM mail_outbox
               WHERE sent_at >= (${today}::date::timestamp AT TIME ZONE 'Europe/Berlin'))::int AS sent_today`),
      fortbildungCounts(db, from, today),
    ]);

  const statusOf = (kind: string): StatusCounts => {
    const count = (status: string) =>
      Number(statuses.rows.find((row) => row.kind === kind && row.status === status)?.count ?? 0);
    return { paid: count("paid"), canceled: count("canceled") };
  };
  const mailRow = mail.rows[0];
  return {
    from,
    to,
    upcomingCongresses: upcoming.rows.map((row) => ({
      id: row.id,
      title: row.title,
      firstDay: row.first_day as IsoDate,
      lastDay: row.last_day as IsoDate | null,
      visible: row.visible,
      running: row.first_day <= today,
      participants: Number(row.participants),
      attendingToday: Number(row.attending_today),
    })),
    salesPerDay: tickets.map((t, i) => ({ day: t.day, tickets: t.count, packages: packages[i]?.count ?? 0 })),
    orderStatus: { tickets: statusOf("tickets"), packages: statusOf("packages") },
    registrationsPerDay: registrations,
    attendancePerDay: attendance,
    mail: {
      queued: Number(mailRow?.queued ?? 0),
      failed: Number(mailRow?.failed ?? 0),
      sentToday: Number(mailRow?.sent_today ?? 0),
    },
    fortbildung,
  };
}
