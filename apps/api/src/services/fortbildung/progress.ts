import type { DbOrTx } from "@app/db";
import type { IsoDate } from "@app/shared";
import { loadFortbildungEvent, participantDays } from "./facts";

export interface MyFortbildungDay {
  day: IsoDate;
  contentMinutes: number;
  attendedMinutes: number;
  requiredMinutes: number;
  /** videos of the day whose length is not known yet */
  unknownVideos: number;
  checksRequired: number;
  checksPassed: number;
  reached: boolean;
}

export interface MyFortbildung {
  vnr: string | null;
  days: MyFortbildungDay[];
}

/**
 * The signed-in participant's own days of a Fortbildung event (ADR 0105): what the event and package
 * pages show per day ("37 von 180 Minuten · Bescheinigung ab 144 Minuten", then "Voraussetzung erfüllt").
 * Null for an event without Fortbildung, so the pages show nothing and their players report nothing.
 */
export async function myFortbildung(
  db: DbOrTx,
  input: { userId: number; congressId: number },
): Promise<MyFortbildung | null> {
  const event = await loadFortbildungEvent(db, input.congressId);
  if (!event.fortbildung) {
    return null;
  }
  const days = await participantDays(db, event, { userId: input.userId });
  return {
    vnr: event.vnr,
    days: days.map((d) => ({
      day: d.day,
      contentMinutes: d.outcome.contentMinutes,
      attendedMinutes: d.outcome.attendedMinutes,
      requiredMinutes: d.outcome.requiredMinutes,
      unknownVideos: d.unknownVideos,
      checksRequired: event.rules.presenceChecksRequired,
      checksPassed: d.checksPassed,
      reached: d.outcome.reached,
    })),
  };
}
