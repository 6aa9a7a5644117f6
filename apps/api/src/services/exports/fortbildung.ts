import { formatGermanDate, type IsoDate, type ZFortbildungDayInput } from "@app/shared";
import type { z } from "zod";
import type { ServiceDeps } from "../deps";
import { type FortbildungRow, toRow } from "../fortbildung/admin";
import { loadFortbildungEvent, participantDays } from "../fortbildung/facts";
import { EXPORT_BATCH_SIZE, exportFileName, type NamedExport, slug } from "./sources";
import type { Column, ExportFormat } from "./table-file";

type Row = FortbildungRow & { day: IsoDate };

/**
 * The Fortbildung section as a file (ADR 0105): every day of the event (or the day and filter the
 * section shows), a row per participant and day, for the organiser's report to the chamber. One statement
 * (the facts of the whole event), handed to the file in batches.
 */
export async function fortbildungExport(
  ctx: Pick<ServiceDeps, "db" | "clock">,
  input: Pick<z.output<typeof ZFortbildungDayInput>, "day" | "reached"> & { congressId: number },
  format: ExportFormat,
): Promise<NamedExport<Row>> {
  const event = await loadFortbildungEvent(ctx.db, input.congressId);
  const days = await participantDays(ctx.db, event, { day: input.day as IsoDate | undefined });
  const rows = days
    .map((d) => ({ ...toRow(event, d), day: d.day }))
    .filter((r) => input.reached === undefined || r.reached === (input.reached === "erreicht"));
  async function* batches() {
    for (let i = 0; i < rows.length; i += EXPORT_BATCH_SIZE) {
      yield rows.slice(i, i + EXPORT_BATCH_SIZE);
    }
  }
  const columns: Column<Row>[] = [
    { header: "Tag", width: 12, value: (r) => formatGermanDate(r.day) },
    { header: "Name", width: 28, value: (r) => r.name },
    { header: "E-Mail", width: 32, value: (r) => r.email },
    { header: "Minuten", width: 10, value: (r) => r.attendedMinutes },
    { header: "Erforderlich ab (Minuten)", width: 14, value: (r) => r.requiredMinutes },
    { header: "Inhalt des Tages (Minuten)", width: 14, value: (r) => r.contentMinutes },
    { header: "Anwesenheitsabfragen bestanden", width: 14, value: (r) => r.checksPassed },
    { header: "Anwesenheitsabfragen erforderlich", width: 14, value: (r) => r.checksRequired },
    { header: "Quelle", width: 26, value: (r) => r.source },
    { header: "Erreicht", width: 10, value: (r) => (r.reached ? "ja" : "nein") },
    { header: "Punkte", width: 8, value: (r) => r.points },
    { header: "VNR", width: 24, value: () => event.vnr },
  ];
  return {
    sheetName: "Fortbildung",
    columns,
    batches: batches(),
    fileName: exportFileName(ctx.clock, `fortbildung-${slug(event.title)}`, format),
  };
}
