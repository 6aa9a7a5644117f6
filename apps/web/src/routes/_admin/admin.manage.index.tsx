import { formatCongressDates, formatGermanDate } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { lazy, type ReactNode, Suspense } from "react";
import { LoadError } from "@/components/admin/load-error";
import { LazySectionError } from "@/components/lazy-route-error";
import { DataTable } from "@/components/ui/table";
import { optionalString } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { DashboardData } from "./-components/dashboard-charts";
import { redirectOldTabLink } from "./-components/old-tab-links";

// recharts is large: it loads with this tab, not with the admin area
const DashboardCharts = lazy(() => import("./-components/dashboard-charts"));

type UpcomingCongress = DashboardData["upcomingCongresses"][number];
type FortbildungCounts = DashboardData["fortbildung"][number];

function Figure({ label, value, hint, tone }: { label: string; value: number; hint?: string; tone?: "bad" }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className={tone === "bad" && value > 0 ? "text-2xl font-bold text-red-700" : "text-2xl font-bold"}>
        {value.toLocaleString("de-DE")}
        {hint && <span className="ml-2 text-sm font-normal text-slate-700">{hint}</span>}
      </dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

const congressColumns = [
  { header: "Veranstaltung", cell: (e: UpcomingCongress) => e.title },
  { header: "Termin", cell: (e: UpcomingCongress) => formatCongressDates(e.firstDay, e.lastDay) },
  {
    header: "Status",
    cell: (e: UpcomingCongress) => `${e.running ? "läuft" : "geplant"}${e.visible ? "" : " (unsichtbar)"}`,
  },
  {
    header: "Teilnehmende",
    cell: (e: UpcomingCongress) => e.participants.toLocaleString("de-DE"),
    className: "text-right",
  },
  {
    header: "Heute anwesend",
    cell: (e: UpcomingCongress) => (e.running ? e.attendingToday.toLocaleString("de-DE") : "–"),
    className: "text-right",
  },
];

const fortbildungColumns = [
  {
    header: "Veranstaltung",
    cell: (e: FortbildungCounts) => (
      <Link
        to="/admin/manage/fortbildung"
        search={{ congress: String(e.id) }}
        className="text-brand-700 underline underline-offset-4"
      >
        {e.title}
      </Link>
    ),
  },
  {
    header: "Voraussetzung erreicht",
    cell: (e: FortbildungCounts) =>
      e.days.length === 0 ? (
        "–"
      ) : (
        <ul className="space-y-0.5">
          {e.days.map((d) => (
            <li key={d.day}>
              {formatGermanDate(d.day)}: {d.reached.toLocaleString("de-DE")} von{" "}
              {d.listed.toLocaleString("de-DE")}
            </li>
          ))}
        </ul>
      ),
  },
];

/**
 * /admin/manage itself: the overview, the first section. An old link to a section (`?tab=users&…`, before
 * the sections were routes) goes on to that section's address with the rest of its search.
 */
export const Route = createFileRoute("/_admin/admin/manage/")({
  staticData: { adminSection: { label: "Übersicht", group: null, position: 0, what: "Die Kennzahlen" } },
  validateSearch: (search: Record<string, unknown>): { tab?: string | undefined } => ({
    tab: optionalString(search.tab, 100),
  }),
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  loader: ({ context: { queryClient }, deps, route, location }) => {
    redirectOldTabLink(route, deps.tab, location.search);
    return queryClient.ensureQueryData(trpc.admin.getDashboard.queryOptions());
  },
  component: DashboardTab,
  errorComponent: LazySectionError,
});

/** The first admin section: what is coming, what sells, who registers and attends, and whether mail flows. */
function DashboardTab() {
  const dashboard = useQuery(trpc.admin.getDashboard.queryOptions());
  if (dashboard.isError) {
    return <LoadError what="Die Kennzahlen" onRetry={() => void dashboard.refetch()} />;
  }
  const data = dashboard.data;
  if (!data) {
    return <p role="status">Kennzahlen werden geladen …</p>;
  }
  const { tickets, packages } = data.orderStatus;
  return (
    <div className="flex flex-col gap-8">
      <p className="text-sm text-slate-700">
        Zeitraum der Diagramme und Bestellzahlen: {formatGermanDate(data.from)} bis{" "}
        {formatGermanDate(data.to)}.
      </p>
      <Section title="E-Mail-Versand">
        <dl className="grid gap-3 sm:grid-cols-3">
          <Figure label="In der Warteschlange" value={data.mail.queued} />
          <Figure label="Fehlgeschlagen" value={data.mail.failed} tone="bad" />
          <Figure label="Heute versendet" value={data.mail.sentToday} />
        </dl>
      </Section>
      <Section title="Bestellungen der letzten 30 Tage">
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Figure label="Tickets bezahlt" value={tickets.paid} />
          <Figure label="Tickets storniert" value={tickets.canceled} />
          <Figure label="Kongresspakete bezahlt" value={packages.paid} />
          <Figure label="Kongresspakete storniert" value={packages.canceled} />
        </dl>
      </Section>
      <Section title="Laufende und kommende Veranstaltungen">
        <DataTable
          label="Laufende und kommende Veranstaltungen"
          columns={congressColumns}
          rows={data.upcomingCongresses}
          loading={false}
          empty="Es sind keine Veranstaltungen geplant."
        />
      </Section>
      {data.fortbildung.length > 0 && (
        <Section title="Fortbildung">
          <DataTable
            label="Fortbildung"
            columns={fortbildungColumns}
            rows={data.fortbildung}
            loading={false}
            empty="Keine Veranstaltung mit Fortbildungspunkten in den letzten 30 Tagen."
          />
        </Section>
      )}
      <Suspense fallback={<p role="status">Diagramme werden geladen …</p>}>
        <DashboardCharts data={data} />
      </Suspense>
    </div>
  );
}
