import { z } from "zod";
import { MSG_FIELD, zForm } from "./field-text";
import { ZId } from "./ids";
import { ZPage } from "./paging";
import { zVnr } from "./vnr";

/**
 * Fortbildung (ADR 0104): watch time measured from the player, and the rule that decides
 * whether a participant attended a day as a chamber requires.
 */

/** The web app reports what was played at least this often while a video plays in a visible tab. */
export const HEARTBEAT_INTERVAL_SECONDS = 60;
/**
 * What one heartbeat may credit at most: the interval and time for a slow network. A heartbeat credits no
 * more than the wall-clock time since the person's clock (any video, ADR 0126, ADR 0149), and never more
 * than this; so no more than this is ever left on the clock for a later heartbeat.
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

// ---------------------------------------------------------------------------------------------------------
// the organiser's rules per event (ADR 0105)

/** Presence checks asked per day at most (the database's check says the same). */
export const MAX_PRESENCE_CHECKS_PER_DAY = 10;
export const MAX_POINTS_PER_DAY = 100;
export const MAX_WEBINAR_MINUTES = 24 * 60;

export const MSG_FORTBILDUNG = {
  pointsPerDay: "Die Punkte pro Tag sind eine ganze Zahl von 0 bis 100 (leer: 1 Punkt je 45 volle Minuten).",
  requiredPercent: "Der erforderliche Anteil ist eine ganze Zahl von 1 bis 100 Prozent.",
  checksPerDay: "Die Anwesenheitsabfragen pro Tag sind eine ganze Zahl von 0 bis 10.",
  checksRequired: "Die erforderlichen Abfragen sind eine ganze Zahl von 0 bis 10.",
  checksMoreThanAsked: "Es können nicht mehr Abfragen erforderlich sein, als pro Tag gestellt werden.",
  webinarMinutes: "Die Webinar-Dauer ist eine ganze Zahl von 1 bis 1.440 Minuten (leer: keine).",
} as const;

/** A whole number typed in a form field ("12") or sent as JSON (12), from `min` to `max`. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z
    .union(
      [
        z.number({ error: message }),
        z
          .string({ error: message })
          .trim()
          .regex(/^-?\d{1,6}$/, message)
          .transform((v) => Number(v)),
      ],
      { error: message },
    )
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message));

/** The same, where an empty field (or `null`) means "none". */
export const optionalWholeNumber = (min: number, max: number, message: string) =>
  z
    .union([z.null({ error: message }), z.literal("", { error: message }), wholeNumber(min, max, message)], {
      error: message,
    })
    .transform((v) => (v === "" ? null : v));

/** A short text of the chamber (the category); empty is none. */
const chamberText = (max: number, the: string) =>
  z
    .string({ error: MSG_FIELD.text })
    .trim()
    .max(max, `${the} darf höchstens ${max} Zeichen lang sein.`)
    .transform((v) => (v === "" ? null : v))
    .nullable();

/**
 * The Fortbildung fields of the event form. Each is optional: a save without them (the spec's REST payload)
 * leaves them as stored, a new event gets the database's defaults (off, 80%, no checks).
 */
export const FORTBILDUNG_FIELDS = {
  fortbildung: z
    .union([z.boolean({ error: MSG_FIELD.yesNo }), z.enum(["true", "false"], { error: MSG_FIELD.yesNo })], {
      error: MSG_FIELD.yesNo,
    })
    .transform((v) => v === true || v === "true")
    .optional(),
  /** 19 digits; one stored otherwise before this check stays until the form is saved again */
  vnr: zVnr.nullable().optional(),
  fortbildungCategory: chamberText(50, "Die Kategorie").optional(),
  pointsPerDay: optionalWholeNumber(0, MAX_POINTS_PER_DAY, MSG_FORTBILDUNG.pointsPerDay).optional(),
  requiredPercent: wholeNumber(1, 100, MSG_FORTBILDUNG.requiredPercent).optional(),
  presenceChecksPerDay: wholeNumber(0, MAX_PRESENCE_CHECKS_PER_DAY, MSG_FORTBILDUNG.checksPerDay).optional(),
  presenceChecksRequired: wholeNumber(
    0,
    MAX_PRESENCE_CHECKS_PER_DAY,
    MSG_FORTBILDUNG.checksRequired,
  ).optional(),
  webinarMinutes: optionalWholeNumber(1, MAX_WEBINAR_MINUTES, MSG_FORTBILDUNG.webinarMinutes).optional(),
};

/** "Es können nicht mehr Abfragen erforderlich sein, …": required ≤ asked, when both are given. */
export function checkPresenceCounts(
  v: { presenceChecksPerDay?: number | undefined; presenceChecksRequired?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    v.presenceChecksPerDay !== undefined &&
    v.presenceChecksRequired !== undefined &&
    v.presenceChecksRequired > v.presenceChecksPerDay
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["presenceChecksRequired"],
      message: MSG_FORTBILDUNG.checksMoreThanAsked,
    });
  }
}

/** The organiser's rules of an event as `dayOutcome` takes them. */
export function rulesOf(congress: {
  requiredPercent: number;
  pointsPerDay: number | null;
  presenceChecksRequired: number;
}): FortbildungRules {
  return {
    requiredPercent: congress.requiredPercent,
    pointsPerDay: congress.pointsPerDay,
    presenceChecksRequired: congress.presenceChecksRequired,
  };
}

const deNumber = (n: number) => n.toLocaleString("de-DE");

/**
 * The participant's line of a day (ADR 0105): "37 von 180 Minuten · Bescheinigung ab 144 Minuten",
 * once reached "150 von 180 Minuten · Voraussetzung erfüllt"; presence checks when the event asks for them.
 */
export function fortbildungDayLine(d: {
  contentMinutes: number;
  attendedMinutes: number;
  requiredMinutes: number;
  checksRequired: number;
  checksPassed: number;
  reached: boolean;
}): string {
  if (d.contentMinutes === 0) {
    return "Die Länge der Videos dieses Tages steht noch nicht fest.";
  }
  const minutes = `${deNumber(d.attendedMinutes)} von ${deNumber(d.contentMinutes)} Minuten`;
  const checks =
    d.checksRequired > 0
      ? ` · Anwesenheitsabfragen: ${Math.min(d.checksPassed, d.checksRequired)} von ${d.checksRequired}`
      : "";
  return d.reached
    ? `${minutes}${checks} · Voraussetzung erfüllt`
    : `${minutes} · Bescheinigung ab ${deNumber(d.requiredMinutes)} Minuten${checks}`;
}

// ---------------------------------------------------------------------------------------------------------
// the organiser's section "Fortbildung" (ADR 0105)

/** The section's filter "erreicht / nicht erreicht", as it stands in the address. */
export const FORTBILDUNG_REACHED_FILTERS = ["erreicht", "nicht-erreicht"] as const;
export type FortbildungReachedFilter = (typeof FORTBILDUNG_REACHED_FILTERS)[number];
export const FORTBILDUNG_REACHED_LABELS: Record<FortbildungReachedFilter, string> = {
  erreicht: "erreicht",
  "nicht-erreicht": "nicht erreicht",
};

const zDay = z.string({ error: MSG_FIELD.date }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG_FIELD.date);

/** One day of an event's participants (no event: the running or latest Fortbildung event; no day: today or its first). */
export const ZFortbildungDayInput = zForm({
  congressId: ZId.optional(),
  day: zDay.optional(),
  reached: z.enum(FORTBILDUNG_REACHED_FILTERS, { error: MSG_FIELD.choice }).optional(),
  page: ZPage,
});
export type TFortbildungDayInput = z.input<typeof ZFortbildungDayInput>;
