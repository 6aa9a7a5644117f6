import {
  FORTBILDUNG_REACHED_FILTERS,
  FORTBILDUNG_REACHED_LABELS,
  type FortbildungReachedFilter,
  formatCongressDates,
  formatGermanDate,
  type TFortbildungDayInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { AdminResource } from "@/components/admin/admin-resource";
import { ChamberReportButtons } from "@/components/admin/chamber-report-buttons";
import { ExportButtons } from "@/components/admin/export-buttons";
import { FilterSelect, fromSearch, useFilters } from "@/components/admin/filters";
import { ParticipantReportImport } from "@/components/admin/participant-report-import";
import { LazySectionError } from "@/components/lazy-route-error";
import { Alert } from "@/components/ui/alert";
import { optionsOf, optionsOfLabels } from "@/components/ui/select";
import { StatusText } from "@/components/ui/status-text";
import { filterChoice, filterDay, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type Section = RouterOutputs["admin"]["fortbildung"]["getDay"];
type Row = Section["page"]["items"][number];

/** The section's filters: the event (none: the running or latest Fortbildung event), its day, the outcome. */
const FORTBILDUNG_FILTERS = { congress: "", day: "", reached: "" };

const isReached = (value: string): value is FortbildungReachedFilter =>
  FORTBILDUNG_REACHED_FILTERS.some((f) => f === value);

/** The day's page as filtered (the section's loader asks for the one its address names). */
const dayPage = ({ congress, day, reached } = FORTBILDUNG_FILTERS, page = 1) => {
  const input: TFortbildungDayInput = {
    page,
    ...(/^[1-9]\d{0,8}$/.test(congress) && { congressId: Number(congress) }),
    ...(day && { day }),
    ...(isReached(reached) && { reached }),
  };
  return trpc.admin.fortbildung.getDay.queryOptions(input);
};

export const Route = createFileRoute("/_admin/admin/manage/fortbildung")({
  staticData: {
    adminSection: {
      label: "Fortbildung",
      group: "Veranstaltungen & Inhalte",
      position: 3.5,
      what: "Die Teilnahmen der Fortbildung",
    },
  },
  validateSearch: (search: Record<string, unknown>): SectionSearch<keyof typeof FORTBILDUNG_FILTERS> => ({
    congress: filterChoice(search.congress),
    day: filterDay(search.day),
    reached: filterChoice(search.reached),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(dayPage(...fromSearch(FORTBILDUNG_FILTERS, deps))),
  component: FortbildungTab,
  errorComponent: LazySectionError,
});

const minutesCell = (r: Row) =>
  r.contentMinutes === 0 ? (
    "–"
  ) : (
    <>
      {r.attendedMinutes.toLocaleString("de-DE")} von {r.contentMinutes.toLocaleString("de-DE")}
      <span className="block text-xs text-slate-600">ab {r.requiredMinutes.toLocaleString("de-DE")}</span>
    </>
  );

/** What the event's rules are and how many reached the day. */
function Summary({ data }: { data: Section }) {
  const { event } = data;
  if (!event || !data.day) {
    return null;
  }
  const rules = [
    `Erforderlich: ${event.requiredPercent} % der Videolänge`,
    event.presenceChecksRequired > 0
      ? `${event.presenceChecksRequired} von ${event.presenceChecksPerDay} Anwesenheitsabfragen`
      : null,
    event.pointsPerDay === null ? "1 Punkt je 45 volle Minuten" : `${event.pointsPerDay} Punkte pro Tag`,
    event.vnr ? `VNR ${event.vnr}` : null,
    event.fortbildungCategory ? `Kategorie ${event.fortbildungCategory}` : null,
  ].filter(Boolean);
  return (
    <div className="mb-3 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <p className="font-medium text-slate-900">
        {event.title} ({formatCongressDates(event.firstDay, event.lastDay)})
        {!event.fortbildung && <span className="ml-2 text-red-700">Fortbildung ist ausgeschaltet</span>}
      </p>
      <p className="text-slate-700">{rules.join(" · ")}</p>
      <p className="mt-1 text-slate-900" role="status">
        {formatGermanDate(data.day)}: {data.reached.toLocaleString("de-DE")} von{" "}
        {data.listed.toLocaleString("de-DE")} Teilnehmenden haben die Voraussetzung erreicht.
      </p>
    </div>
  );
}

/**
 * The videos of the event's days whose length is unknown (ADR 0105), before the event as during it:
 * they are left out of their day's length, and a day without a known length cannot be reached.
 */
function UnknownLengths({ data }: { data: Section }) {
  const { event, unknownLengths } = data;
  if (!event || unknownLengths.total === 0) {
    return null;
  }
  const more = unknownLengths.total - unknownLengths.videos.length;
  return (
    <Alert mode="question" aria-labelledby="unknown-lengths-title" role="region">
      <h2 id="unknown-lengths-title" className="font-semibold">
        Videos ohne Länge ({unknownLengths.total.toLocaleString("de-DE")})
      </h2>
      <p className="mt-1">
        Weder im Video-Inhalt noch bei Vimeo ist ihre Länge bekannt (für private oder auf Domains beschränkte
        Videos nennt Vimeo keine). Sie fehlen in der Videolänge ihres Tages; einen Tag ohne bekannte Länge
        kann niemand erreichen, also auch keine Bescheinigung erhalten. Länge im Video-Inhalt eintragen (mm:ss
        oder hh:mm:ss). Für einen Livestream tragen Sie die geplante Dauer ein und setzen das Häkchen
        „Livestream“: seine Wiedergabe wird nach der Uhrzeit gezählt.
      </p>
      <ul className="mt-2 list-disc space-y-0.5 pl-5">
        {unknownLengths.videos.map((u, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one address may stand on several days
          <li key={i}>
            {u.dayName} ({u.date ? formatGermanDate(u.date) : "alle Tage"}):{" "}
            {u.video === u.url ? <span className="break-all">{u.url}</span> : `„${u.video}“`}
          </li>
        ))}
        {more > 0 && <li>und {more.toLocaleString("de-DE")} weitere</li>}
      </ul>
      <p className="mt-2">
        <Link
          to="/admin/manage/contents"
          search={{ search: event.title }}
          className="text-brand-700 underline underline-offset-4"
        >
          Zu den Video-Inhalten von {event.title}
        </Link>
      </p>
    </Alert>
  );
}

/**
 * "Fortbildung" (ADR 0105): per day of a Fortbildung event the participants with their minutes,
 * presence checks, where the time comes from and whether they reached the day; exported as CSV or XLSX.
 */
function FortbildungTab() {
  const filters = useFilters(FORTBILDUNG_FILTERS);
  const events = useQuery(trpc.admin.congresses.list.queryOptions());
  const current = useQuery(dayPage(filters.applied, filters.page));
  const data = current.data;
  const event = data?.event;
  const eventOptions = optionsOf(
    events.data?.filter((e) => e.fortbildung || e.id === event?.id),
    (e) => `${e.title} (${formatCongressDates(e.firstDay, e.lastDay)})`,
  );
  const dayOptions = (event?.days ?? []).map((day) => ({ value: day, label: formatGermanDate(day) }));
  const exportQuery: Record<string, string> = {
    ...(data?.day && { day: data.day }),
    ...(isReached(filters.applied.reached) && { reached: filters.applied.reached }),
  };
  return (
    <AdminResource<Row>
      items="Teilnahmen"
      intro="Wer an einem Tag einer Veranstaltung mit Fortbildungspunkten wie lange dabei war: gemessen im Player oder aus einem hochgeladenen Teilnehmerbericht, mit den bestandenen Anwesenheitsabfragen."
      list={(page) => ({ ...dayPage(filters.applied, page), select: (d: Section) => d.page })}
      paging={filters}
      empty={
        data && !event
          ? "Noch keine Veranstaltung mit Fortbildungspunkten. Schalten Sie „Fortbildungspunkte vergeben“ im Bereich Veranstaltungen ein."
          : "Keine Teilnahmen gefunden."
      }
      toolbar={
        <div className="flex w-full flex-col gap-3">
          <div className="grid w-full gap-3 sm:grid-cols-3">
            <FilterSelect
              filters={filters}
              name="congress"
              label="Veranstaltung"
              options={eventOptions}
              placeholder="Laufende oder zuletzt"
            />
            <FilterSelect
              filters={filters}
              name="day"
              label="Tag"
              options={dayOptions}
              placeholder="Heute oder erster Tag"
            />
            <FilterSelect
              filters={filters}
              name="reached"
              label="Voraussetzung"
              options={optionsOfLabels(FORTBILDUNG_REACHED_LABELS)}
            />
          </div>
          {data && <Summary data={data} />}
          {data && <UnknownLengths data={data} />}
        </div>
      }
      actions={
        event && (
          // a webinar held in another tool: its participant report (ADR 0107) beside the export
          <div className="flex flex-wrap items-center gap-3">
            <ParticipantReportImport congress={event} />
            <ExportButtons
              path={`/api/admin/exports/fortbildung/${event.id}`}
              query={exportQuery}
              what={`Fortbildung von ${event.title}`}
              caption="Liste:"
            />
            {data?.day && data.chamberReport && (
              <ChamberReportButtons
                path={`/api/admin/exports/chamber-report/${event.id}`}
                query={{ day: data.day }}
                what={`vom ${formatGermanDate(data.day)}`}
                state={data.chamberReport}
              />
            )}
          </div>
        )
      }
      columns={[
        {
          header: "Name",
          cell: (r) => (
            <>
              {r.name}
              <span className="block text-xs break-all text-slate-600">{r.email}</span>
            </>
          ),
        },
        { header: "Minuten", cell: minutesCell, className: "text-right" },
        {
          // as the export's two columns say it: passed, and how many the day requires
          header: "Anwesenheitsabfragen bestanden",
          cell: (r) => (r.checksRequired > 0 ? `${r.checksPassed} (${r.checksRequired} erforderlich)` : "–"),
        },
        { header: "Quelle", cell: (r) => r.source },
        {
          header: "Erreicht",
          cell: (r) => (
            <StatusText tone={r.reached ? "good" : "neutral"}>{r.reached ? "Ja" : "Nein"}</StatusText>
          ),
        },
        { header: "Punkte", cell: (r) => r.points, className: "text-right" },
      ]}
    />
  );
}
