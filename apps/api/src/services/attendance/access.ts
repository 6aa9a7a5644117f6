import type { AttendanceSource, IsoDate } from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import type { Param } from "../../lib/prepared-statement";
import type { ServiceDeps } from "../deps";

/** The staff whitelist (STAFF_EMAILS) as the JSON array `congressAccess` takes. */
export const staffList = (env: Pick<ServiceDeps["env"], "STAFF_EMAILS">): string =>
  JSON.stringify(env.STAFF_EMAILS);

/**
 * The access rules of an event's content as two common table expressions, for statements that check and
 * write at once (attendance, watch time): `viewer` (the active account; `staff` by the whitelist) and
 * `target` (the event, `counts` when the content is open to the viewer today in Berlin: visible, running,
 * participating, a paid ticket if the event sells tickets; webinar sources only for webinars).
 */
export function congressAccess(
  staff: Param<string>,
  input: { userId: Param<number>; congressId: Param<number>; source: Param<AttendanceSource> },
  today: Param<IsoDate>,
): SQL {
  return sql`viewer AS (
      SELECT u.id, lower(u.email) IN (
        SELECT jsonb_array_elements_text(${staff}::jsonb)) AS staff
      FROM users u WHERE u.id = ${input.userId} AND u.active
    ), target AS (
      SELECT c.id, v.id AS user_id, v.staff,
        c.visible
        AND ${today}::date BETWEEN c.first_day AND coalesce(c.last_day, c.first_day)
        AND (${input.source} <> 'webinar' OR c.webinar)
        AND EXISTS (SELECT 1 FROM participations p WHERE p.congress_id = c.id AND p.user_id = v.id)
        AND (
          (c.digistore_id_ticket = 0 AND c.digistore_id_ticket_and_package = 0)
          OR EXISTS (SELECT 1 FROM congress_ticket_orders t
            WHERE t.congress_id = c.id AND t.user_id = v.id AND t.status = 'paid')
        ) AS counts
      FROM congresses c CROSS JOIN viewer v WHERE c.id = ${input.congressId}
    )`;
}
