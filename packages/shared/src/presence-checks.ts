import { z } from "zod";
import { zForm } from "./field-text";
import { ZId } from "./ids";

/**
 * Presence checks (ADR 0109): "Sind Sie noch da?" at moments the server drew, as the
 * participant's credited watch seconds of the day; passed when answered within this many seconds of being
 * asked (the server's clock decides).
 */
export const PRESENCE_CHECK_ANSWER_SECONDS = 120;
/**
 * The moments lie between these shares of the seconds a participant must attend that day (the event's
 * required share of the day's content): whoever reaches the minutes was asked every check, and none comes
 * in the first seconds or just before the end.
 */
export const PRESENCE_CHECK_WINDOW = { from: 0.05, to: 0.95 } as const;

export const MSG_PRESENCE = {
  question: "Sind Sie noch da?",
  hint: "Bitte bestätigen Sie innerhalb von 2 Minuten, dass Sie die Veranstaltung verfolgen.",
  /** added to the hint while a video of the page plays (a check may also come with a pause) */
  playsOn: "Das Video läuft weiter.",
  answer: "Ja, ich bin da",
  passed: "Danke, Ihre Anwesenheit ist bestätigt.",
  late: "Ihre Antwort kam nach mehr als 2 Minuten. Sie ist vermerkt, zählt aber nicht als bestätigte Anwesenheit.",
  failed: "Ihre Antwort konnte nicht gespeichert werden. Bitte versuchen Sie es noch einmal.",
  close: "Schließen",
  unknownTitle: "Anwesenheitsabfrage nicht gefunden",
  unknown: "Diese Anwesenheitsabfrage wurde Ihnen nicht gestellt.",
  check: "Diese Anwesenheitsabfrage ist ungültig.",
} as const;

/** A check the heartbeat's answer asks (or asks again while it is open): answer it with these fields. */
export interface PresenceCheckAsked {
  congressId: number;
  /** the Berlin day it belongs to (YYYY-MM-DD) */
  day: string;
  seq: number;
  /** when it was asked (ISO), the start of the 120 s */
  askedAt: string;
}

/** The participant's answer to a check: which one (their own, by the signed-in account). */
export const ZPresenceAnswerInput = zForm({
  congressId: ZId,
  day: z.string({ error: MSG_PRESENCE.check }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG_PRESENCE.check),
  seq: z
    .number({ error: MSG_PRESENCE.check })
    .int(MSG_PRESENCE.check)
    .min(1, MSG_PRESENCE.check)
    .max(10, MSG_PRESENCE.check),
});
export type TPresenceAnswerInput = z.input<typeof ZPresenceAnswerInput>;

/** Whether an answer came in time: at most PRESENCE_CHECK_ANSWER_SECONDS after the question. */
export function answeredInTime(askedAt: Date, answeredAt: Date): boolean {
  return answeredAt.getTime() - askedAt.getTime() <= PRESENCE_CHECK_ANSWER_SECONDS * 1000;
}
