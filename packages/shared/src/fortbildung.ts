import { z } from "zod";
import { MSG_FIELD, zForm } from "./field-text";
import { ZId } from "./ids";

/**
 * Fortbildung (issue 33, decision 104): watch time measured from the player, and the rule that decides
 * whether a participant attended a day as a chamber requires.
 */

/** The web app reports what was played at least this often while a video plays in a visible tab. */
export const HEARTBEAT_INTERVAL_SECONDS = 60;
/**
 * What one heartbeat may credit at most: the interval and time for a slow network. A heartbeat credits no
 * more than the wall-clock time since the previous one of the same video, and never more than this.
 */
export const HEARTBEAT_MAX_CREDIT_SECONDS = 75;
/** Played ranges one heartbeat may carry (a minute of seeking about is a handful). */
export const HEARTBEAT_MAX_RANGES = 50;
/** The longest recording we count positions in (a congress day). */
export const MAX_MEDIA_SECONDS = 24 * 60 * 60;
/** Minutes that earn a Fortbildungspunkt, as the chambers count. */
export const MINUTES_PER_POINT = 45;
/** The share of a day's content a participant must attend unless the organiser sets another, in percent. */
export const DEFAULT_REQUIRED_PERCENT = 80;

export const MSG_WATCH = {
  range: "Die gemeldete Wiedergabe ist ungültig.",
  video: "Dieses Video gehört nicht zu dieser Veranstaltung.",
} as const;

const zPosition = z
  .number({ error: MSG_WATCH.range })
  .min(0, MSG_WATCH.range)
  .max(MAX_MEDIA_SECONDS, MSG_WATCH.range);

/**
 * One heartbeat of the player: the positions played since the previous one (recordings, in media seconds;
 * `{start, end}`), or for a live stream (`live`) the seconds it played. An empty report (at `play`) only
 * starts the wall clock the next one is measured against.
 */
export const ZHeartbeatInput = zForm({
  congressId: ZId,
  /** the package page the recording plays on; absent on the event page */
  packageId: ZId.optional(),
  videoUrl: z.string({ error: MSG_WATCH.video }).min(1, MSG_WATCH.video).max(2000, MSG_WATCH.video),
  ranges: z
    .array(
      z
        .object({ start: zPosition, end: zPosition }, { error: MSG_WATCH.range })
        .refine(({ start, end }) => start <= end, MSG_WATCH.range),
      { error: MSG_WATCH.range },
    )
    .max(HEARTBEAT_MAX_RANGES, MSG_WATCH.range)
    .default([]),
  live: z.boolean({ error: MSG_FIELD.yesNo }).default(false),
  liveSeconds: z
    .number({ error: MSG_WATCH.range })
    .min(0, MSG_WATCH.range)
    .max(HEARTBEAT_MAX_CREDIT_SECONDS * 10, MSG_WATCH.range)
    .default(0),
});
export type THeartbeatInput = z.input<typeof ZHeartbeatInput>;

/** How an event decides that a participant attended a day (set by the organiser per event). */
export interface FortbildungRules {
  /** the share of the day's content duration to attend, in whole percent (1-100) */
  requiredPercent: number;
  /** the points of a day as the organiser set them; null: 1 per 45 full minutes of the day's content */
  pointsPerDay: number | null;
  /** presence checks to pass per day; 0: none asked */
  presenceChecksRequired: number;
}

/** What is known of one participant and one day. */
export interface DayFacts {
  /** the day's content: the sum of its videos' durations, or the webinar's scheduled length */
  contentSeconds: number;
  /** the distinct seconds credited to the participant for that day's content */
  attendedSeconds: number;
  checksPassed: number;
}

export interface DayOutcome {
  contentMinutes: number;
  attendedMinutes: number;
  /** the minutes from which the day counts ("Bescheinigung ab 144 Minuten") */
  requiredMinutes: number;
  /** presence checks still to pass */
  checksMissing: number;
  reached: boolean;
  /** the day's points once reached, else 0 */
  points: number;
}

/**
 * Whether a participant reached a day's rule. Minutes are whole minutes, as the participant sees them:
 * attended minutes are rounded down, the required ones up, so "144 von 180 Minuten" with 80% is reached and
 * 143 is not. A day whose content has no known length cannot be reached (nothing to measure against).
 */
export function dayOutcome(rules: FortbildungRules, facts: DayFacts): DayOutcome {
  const contentMinutes = Math.floor(Math.max(0, facts.contentSeconds) / 60);
  const attendedMinutes = Math.min(contentMinutes, Math.floor(Math.max(0, facts.attendedSeconds) / 60));
  const percent = Math.min(100, Math.max(1, Math.round(rules.requiredPercent)));
  const requiredMinutes = Math.ceil((contentMinutes * percent) / 100);
  const checksMissing = Math.max(0, rules.presenceChecksRequired - facts.checksPassed);
  const reached = contentMinutes > 0 && attendedMinutes >= requiredMinutes && checksMissing === 0;
  const points = rules.pointsPerDay ?? Math.floor(contentMinutes / MINUTES_PER_POINT);
  return {
    contentMinutes,
    attendedMinutes,
    requiredMinutes,
    checksMissing,
    reached,
    points: reached ? points : 0,
  };
}
