import { type ChamberReportState, chamberReportHint } from "@app/shared";
import { ExportButtons } from "@/components/admin/export-buttons";

/**
 * The chamber's report (ADR 0113) as CSV or Excel: who is certified, with VNR, EFN, name, date and
 * points; those without an EFN as a CSV of their own (the Excel file holds them on a second sheet). An
 * event's report is of one day (`query.day`), a learning check's of its passes. Before its certificates
 * exist (the event's last day not over, no issuer named) the reason stands in the buttons' place.
 */
export function ChamberReportButtons({
  path,
  query = {},
  what,
  state = { status: "ready" },
}: {
  /** the export without its extension */
  path: string;
  query?: Record<string, string>;
  /** what the report is of, for the buttons' names: "vom 23.11.2026" */
  what: string;
  state?: ChamberReportState;
}) {
  const hint = chamberReportHint(state);
  if (hint !== null) {
    return (
      <p className="max-w-prose text-sm text-slate-700" data-slot="chamber-report">
        <span className="font-medium text-slate-900">Meldung an die Kammer:</span> {hint}
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-slot="chamber-report">
      <ExportButtons
        path={path}
        query={query}
        what={`Meldung an die Kammer ${what}`}
        caption="Meldung an die Kammer:"
      />
      <ExportButtons
        path={path}
        query={{ ...query, list: "ohne-efn" }}
        formats={["csv"]}
        what={`Teilnehmende ohne EFN ${what}`}
        caption="Ohne EFN:"
      />
    </div>
  );
}
