import { formatGermanDate, fortbildungDayLine } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { CircleCheckIcon } from "lucide-react";
import { type Trpc, trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";
import type { WatchEvent } from "@/lib/watch-time/use-watch-time";

type MyFortbildung = NonNullable<RouterOutputs["fortbildung"]["getMyDays"]>;

const WEEKDAY = new Intl.DateTimeFormat("de-DE", { weekday: "long", timeZone: "UTC" });
/** "Montag, 12.10.2026" */
export const dayLabel = (day: string) =>
  `${WEEKDAY.format(new Date(`${day}T00:00:00Z`))}, ${formatGermanDate(day)}`;

/**
 * The participant's Fortbildung per day (ADR 0105), on the event and package pages. Refreshed after
 * each heartbeat the players send (lib/watch-time), so it counts up while a video plays.
 */
export function FortbildungProgress({ data }: { data: MyFortbildung }) {
  return (
    <section
      aria-labelledby="fortbildung-heading"
      className="mb-8 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="fortbildung-heading" className="text-lg font-semibold text-slate-900">
        Fortbildung
        {data.vnr ? <span className="ml-2 text-sm font-normal text-slate-600">VNR {data.vnr}</span> : null}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Für die Teilnahmebescheinigung zählt, was Sie am jeweiligen Veranstaltungstag ansehen.
      </p>
      <ul className="mt-3 flex flex-col gap-2" aria-live="polite">
        {data.days.map((d) => (
          <li key={d.day} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
            <span className="font-medium text-slate-800 sm:w-56">{dayLabel(d.day)}</span>
            <span className={d.reached ? "flex items-center gap-1 text-green-800" : "text-slate-700"}>
              {d.reached && <CircleCheckIcon aria-hidden="true" className="size-4 shrink-0" />}
              {fortbildungDayLine(d)}
              {d.unknownVideos > 0 && d.contentMinutes > 0 && (
                <span className="text-slate-600">
                  {" "}
                  (ohne {d.unknownVideos === 1 ? "ein Video" : `${d.unknownVideos} Videos`} unbekannter Länge)
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The participant's days of an event (null: no Fortbildung), for a page's loader and component. */
export const myFortbildungQuery = (api: Trpc, congressId: number) =>
  api.fortbildung.getMyDays.queryOptions({ congressId }, { retry: false });

/**
 * A page's Fortbildung: the participant's days and whose watch time its players report. Only a Fortbildung
 * event records watch time (ADR 0106): for any other, or while unknown, the players report nothing.
 */
export function useMyFortbildung(watch: WatchEvent): { progress: MyFortbildung | null; watch?: WatchEvent } {
  const { data } = useQuery(myFortbildungQuery(trpc, watch.congressId));
  return data ? { progress: data, watch } : { progress: null };
}
