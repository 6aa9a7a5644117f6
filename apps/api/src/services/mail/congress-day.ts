import { type DbOrTx, schema } from "@app/db";
import { berlinDate, type IsoDate } from "@app/shared";
import { sql } from "drizzle-orm";
import type { ServiceDeps } from "../deps";

/**
 * Queues the 'day of event' mail (template `event-day`) for every active participant of every visible
 * congress whose date range contains `day`. One INSERT … SELECT, so it scales with the number of
 * participants; the idempotency key `event-day:{congress}:{user}:{day}` makes repeated, concurrent or
 * caught-up runs send exactly one mail per user, congress and day. Answers the new outbox ids.
 */
export async function queueCongressDayMails(db: DbOrTx, appUrl: string, day: IsoDate): Promise<number[]> {
  const { mailOutbox, participations, users, congresses } = schema;
  const base = appUrl.replace(/\/$/, "");
  const result = await db.execute<{ id: number }>(sql`
    INSERT INTO ${mailOutbox} (idempotency_key, template_name, congress_id, user_id, to_email, variables)
    SELECT 'event-day:' || c.id || ':' || u.id || ':' || ${day},
           'event-day', c.id, u.id, u.email,
           jsonb_build_object(
             'userFullName', u.firstname || ' ' || u.lastname,
             'firstname', u.firstname,
             'lastname', u.lastname,
             'newsletter', u.newsletter,
             'congressTitle', c.title,
             'url', ${base} || '/congress/' || c.id)
      FROM ${participations} p
      JOIN ${users} u ON u.id = p.user_id AND u.active
      JOIN ${congresses} c ON c.id = p.congress_id AND c.visible
     WHERE c.first_day <= ${day}::date AND coalesce(c.last_day, c.first_day) >= ${day}::date
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id`);
  return result.rows.map((row) => Number(row.id));
}

/**
 * The run of the schedule at 0:00 Berlin (and the catch-up at start-up): the mails of the Berlin day the
 * clock is in, so a run a moment after midnight sends the new day's mails.
 */
export function queueTodaysCongressDayMails(
  deps: Pick<ServiceDeps, "db" | "clock">,
  appUrl: string,
): Promise<number[]> {
  return queueCongressDayMails(deps.db, appUrl, berlinDate(deps.clock.now()));
}
