import { randomInt } from "node:crypto";
import {
  answeredInTime,
  type IsoDate,
  MSG_PRESENCE,
  PRESENCE_CHECK_ANSWER_SECONDS,
  PRESENCE_CHECK_WINDOW,
  type PresenceCheckAsked,
  type ZPresenceAnswerInput,
} from "@app/shared";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import type { Param } from "../../lib/prepared-statement";
import type { ServiceDeps } from "../deps";
import { contentSecondsOfDay } from "../fortbildung/facts";

/**
 * Presence checks (ADR 0109). Per participant, event (with Fortbildung and checks per
 * day) and Berlin day, the server draws the moments once, at the first heartbeat of the day on the event
 * page, as credited watch seconds of that day; the heartbeat's own statement asks the earliest one that is
 * due (`presenceAsk`) and answers it again while it is open; `answerPresenceCheck` records the answer.
 */

export interface CheckScope {
  userId: number;
  congressId: number;
  day: IsoDate;
}

/** A scope in a statement built once (`preparedStatement`): its values or placeholders. */
export type CheckScopeParams = { [K in keyof CheckScope]: Param<CheckScope[K]> };

const scope = (s: CheckScopeParams, alias: string) =>
  sql`${sql.raw(alias)}.user_id = ${s.userId}::int AND ${sql.raw(alias)}.congress_id = ${s.congressId}::int
    AND ${sql.raw(alias)}.day = ${s.day}::date`;

/**
 * Common table expressions for the heartbeat's statement, after `credited` (the video's seconds it wrote;
 * none when the access rules refused): `checks_rules` (the event asks checks), `day_seconds` (the
 * participant's credited seconds of the day: the other videos' rows as the statement found them, plus the
 * written one), `open_check` (asked, unanswered and within its 120 s), `asked` (marks the earliest due
 * check as asked unless one is open). Two heartbeats at once: the second one's update waits for the
 * first's row lock, then finds `asked_at` set and skips it; it asks nothing else in that statement, so a
 * check is never asked twice and none is skipped.
 */
export function presenceAsk(
  s: CheckScopeParams,
  videoKey: Param<string>,
  now: Param<Date>,
  eventPage: boolean,
): SQL {
  return sql`checks_rules AS (
      SELECT c.presence_checks_per_day AS per_day FROM congresses c
      WHERE c.id = ${s.congressId}::int AND c.fortbildung AND c.presence_checks_per_day > 0
        AND ${eventPage}::boolean AND EXISTS (SELECT 1 FROM credited)
    ), day_seconds AS (
      SELECT coalesce((SELECT sum(w.seconds) FROM watch_time w
        WHERE ${scope(s, "w")} AND w.source = 'player' AND w.video_key <> ${videoKey}), 0)
        + (SELECT seconds FROM credited) AS seconds
    ), open_check AS (
      SELECT p.seq, p.asked_at FROM presence_checks p
      WHERE ${scope(s, "p")} AND p.answered_at IS NULL
        AND p.asked_at > ${now}::timestamptz - make_interval(secs => ${PRESENCE_CHECK_ANSWER_SECONDS}::float8)
      ORDER BY p.seq LIMIT 1
    ), asked AS (
      UPDATE presence_checks p SET asked_at = ${now}::timestamptz
      WHERE ${scope(s, "p")} AND p.asked_at IS NULL
        AND p.seq = (SELECT min(q.seq) FROM presence_checks q WHERE ${scope(s, "q")} AND q.asked_at IS NULL
          AND q.due_at_seconds <= (SELECT seconds FROM day_seconds))
        AND EXISTS (SELECT 1 FROM checks_rules) AND NOT EXISTS (SELECT 1 FROM open_check)
      RETURNING p.seq, p.asked_at
    )`;
}

/** The columns the heartbeat's final select adds for `presenceAsk`. */
export const presenceAskColumns = (s: CheckScopeParams) => sql`
  coalesce((SELECT seq FROM asked), (SELECT seq FROM open_check)) AS check_seq,
  coalesce((SELECT asked_at FROM asked), (SELECT asked_at FROM open_check)) AS check_asked_at,
  (SELECT per_day FROM checks_rules) AS checks_per_day,
  (EXISTS (SELECT 1 FROM checks_rules)
    AND NOT EXISTS (SELECT 1 FROM presence_checks p WHERE ${scope(s, "p")})) AS checks_undrawn`;

export type PresenceAskRow = {
  check_seq: number | null;
  check_asked_at: Date | string | null;
  checks_per_day: number | null;
  checks_undrawn: boolean;
};

/** The check the heartbeat answers with (asked now or still open), if any. */
export function askedCheck(s: CheckScope, row: PresenceAskRow): PresenceCheckAsked | undefined {
  if (row.check_seq === null || row.check_asked_at === null) {
    return undefined;
  }
  return {
    congressId: s.congressId,
    day: s.day,
    seq: row.check_seq,
    askedAt: new Date(row.check_asked_at).toISOString(),
  };
}

/**
 * Draws the day's moments: the window of PRESENCE_CHECK_WINDOW of the seconds to attend (the required
 * share of the day's content) cut into one stretch per check, one moment uniformly at random in each
 * (node's CSPRNG; nothing the client could derive). Stretches keep the checks apart even when two first
 * heartbeats draw at once: each seq is inserted once (the primary key), whichever draw comes first. A day
 * whose content has no known length gets none yet (it cannot be reached either); a later heartbeat draws
 * once the lengths are known.
 */
export async function drawPresenceChecks(
  ctx: Pick<ServiceDeps, "db">,
  s: CheckScope,
  perDay: number,
): Promise<void> {
  const shares = Array.from({ length: perDay }, () => randomInt(0, 1_000_000) / 1_000_000);
  const { from, to } = PRESENCE_CHECK_WINDOW;
  await ctx.db.execute(sql`
    INSERT INTO presence_checks (user_id, congress_id, day, seq, due_at_seconds)
    SELECT ${s.userId}::int, ${s.congressId}::int, ${s.day}::date, d.seq,
      floor(w.lo + (w.hi - w.lo) * ((d.seq - 1) + d.share) / ${perDay}::int)::int
    FROM (
      SELECT ${from}::float8 * r.required AS lo, ${to}::float8 * r.required AS hi FROM (
        SELECT ${contentSecondsOfDay(s.congressId, s.day)} * c.required_percent / 100.0 AS required
        FROM congresses c WHERE c.id = ${s.congressId}::int
      ) r WHERE r.required > 0
    ) w CROSS JOIN unnest(${`{${shares.join(",")}}`}::float8[]) WITH ORDINALITY AS d(share, seq)
    ON CONFLICT DO NOTHING`);
}

export type PresenceAnswerInput = z.output<typeof ZPresenceAnswerInput> & { userId: number };

/**
 * Records the participant's answer to their own check (the account's id is part of the key, so another's
 * check is unknown here): the first answer's time stays, a repeated answer gets the same result. Passed
 * when it came within PRESENCE_CHECK_ANSWER_SECONDS of the question; a late one is recorded, not passed.
 */
export async function answerPresenceCheck(
  ctx: Pick<ServiceDeps, "db" | "clock">,
  input: PresenceAnswerInput,
): Promise<{ passed: boolean; answeredAt: string }> {
  const now = ctx.clock.now();
  const s: CheckScope = { userId: input.userId, congressId: input.congressId, day: input.day };
  const result = await ctx.db.execute<{ asked_at: Date | string; answered_at: Date | string | null }>(sql`
    WITH answered AS (
      UPDATE presence_checks p SET answered_at = ${now}::timestamptz
      WHERE ${scope(s, "p")} AND p.seq = ${input.seq}::int AND p.asked_at IS NOT NULL AND p.answered_at IS NULL
      RETURNING p.asked_at, p.answered_at
    )
    SELECT asked_at, answered_at FROM answered
    UNION ALL
    SELECT p.asked_at, p.answered_at FROM presence_checks p
    WHERE ${scope(s, "p")} AND p.seq = ${input.seq}::int AND p.asked_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM answered)`);
  const row = result.rows[0];
  if (!row) {
    throw new AppError(
      "NOT_FOUND",
      `presence check ${input.congressId}/${input.day}/${input.seq} not asked to user ${input.userId}`,
      MSG_PRESENCE.unknown,
      MSG_PRESENCE.unknownTitle,
    );
  }
  // answered by a request at the same moment, which the statement's snapshot did not see yet
  const answeredAt = row.answered_at === null ? now : new Date(row.answered_at);
  return {
    passed: answeredInTime(new Date(row.asked_at), answeredAt),
    answeredAt: answeredAt.toISOString(),
  };
}
