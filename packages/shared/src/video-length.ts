import { z } from "zod";
import "./zod-locale";
import { MAX_MEDIA_SECONDS } from "./fortbildung";

/**
 * A video's length as the organiser types it in the video content (ADR 0105): a private or
 * domain-restricted Vimeo video answers oEmbed without one, and a day without a known length cannot be
 * reached. Stored in the content's JSON as whole seconds (`duration`), shown as "m:ss" or "h:mm:ss".
 */

export const MSG_VIDEO_LENGTH = {
  format: "Die Länge ist im Format mm:ss oder hh:mm:ss anzugeben.",
  range: "Die Länge eines Videos liegt zwischen 0:01 und 24:00:00.",
  wholeSeconds: "Die Länge ist in ganzen Sekunden anzugeben.",
} as const;

/** mm:ss (minutes past the hour allowed, "95:30", as players show long recordings) or hh:mm:ss */
const MINUTES_SECONDS = /^(\d{1,4}):([0-5]\d)$/;
const HOURS_MINUTES_SECONDS = /^(\d{1,2}):([0-5]\d):([0-5]\d)$/;

/**
 * The seconds of "12:34" (mm:ss) or "1:02:03" (hh:mm:ss), or null when the text is neither. Plain minutes
 * ("45") are refused: they could as well be meant as seconds. The range is the schema's to check.
 */
export function parseVideoLength(text: string): number | null {
  const ms = text.match(MINUTES_SECONDS);
  if (ms) {
    return Number(ms[1]) * 60 + Number(ms[2]);
  }
  const hms = text.match(HOURS_MINUTES_SECONDS);
  if (hms) {
    return Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3]);
  }
  return null;
}

/** 754 → "12:34", 3723 → "1:02:03": as the length field shows a stored length. */
export function formatVideoLength(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

const inRange = (seconds: number) => seconds >= 1 && seconds <= MAX_MEDIA_SECONDS;

/** as typed: "" is none */
const typedLength = z
  .string({ error: MSG_VIDEO_LENGTH.format })
  .trim()
  .max(12, MSG_VIDEO_LENGTH.format)
  .refine((v) => v === "" || parseVideoLength(v) !== null, MSG_VIDEO_LENGTH.format)
  .transform((v) => (v === "" ? undefined : (parseVideoLength(v) ?? undefined)))
  .refine((v) => v === undefined || inRange(v), MSG_VIDEO_LENGTH.range);

/** as stored and as the REST list answers it: whole seconds */
const storedLength = z
  .number({ error: MSG_VIDEO_LENGTH.format })
  .refine(Number.isInteger, MSG_VIDEO_LENGTH.wholeSeconds)
  .refine(inRange, MSG_VIDEO_LENGTH.range);

/**
 * The optional length of a content video: the typed text, or the stored seconds a REST client sends back;
 * empty, null or absent is none (a content saved without lengths stays as it was). Answers whole seconds
 * (1 s to 24 h) or undefined, so the stored JSON has no `duration` where none was given.
 */
export const zVideoLength = z
  .union([storedLength, typedLength, z.null({ error: MSG_VIDEO_LENGTH.format })], {
    error: MSG_VIDEO_LENGTH.format,
  })
  .optional()
  .transform((v) => v ?? undefined);

/** said when a content video's `live` is not yes or no (a hand-made REST request) */
export const MSG_VIDEO_LIVE = "Bitte geben Sie mit Ja oder Nein an, ob das Video ein Livestream ist.";

/**
 * The organiser's word that a content video is a live stream (ADR 0126): a private Vimeo live stream
 * answers oEmbed without a duration, so only the organiser can say it, and the heartbeat then credits it by
 * the clock though it has a length (the planned duration). true or false from the form; null or absent
 * (older clients, REST) is no. Answers true or undefined, so the stored JSON carries `live` only when set.
 */
export const zVideoLive = z
  .boolean({ error: MSG_VIDEO_LIVE })
  .nullable()
  .optional()
  .transform((v) => (v === true ? true : undefined));
