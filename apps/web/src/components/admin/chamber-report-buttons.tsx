import { formatGermanDate } from "@app/shared";
import { ExportButtons } from "@/components/admin/export-buttons";

/**
 * The chamber's report of the section's day (issue 34 item 6, decision 113): who reached the day with VNR,
 * EFN, name, date and points, as CSV or Excel; those without an EFN as a CSV of their own (the Excel file
 * holds them on a second sheet).
 */
export function ChamberReportButtons({ congressId, day }: { congressId: number; day: string }) {
  const path = `/api/admin/exports/chamber-report/${congressId}`;
  const date = formatGermanDate(day);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-slot="chamber-report">
      <ExportButtons
        path={path}
        query={{ day }}
        what={`Meldung an die Kammer vom ${date}`}
        caption="Meldung an die Kammer:"
      />
      <ExportButtons
        path={path}
        query={{ day, list: "ohne-efn" }}
        formats={["csv"]}
        what={`Teilnehmende ohne EFN vom ${date}`}
        caption="Ohne EFN:"
      />
    </div>
  );
}
