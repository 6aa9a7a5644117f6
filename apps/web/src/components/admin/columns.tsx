import { formatGermanDateTime } from "@app/shared";
import type { Column } from "@/components/ui/table";

/** A moment as "TT.MM.JJJJ, HH:MM Uhr"; "–" for none. */
const atTime = (at: Date | null) => (at ? `${formatGermanDateTime(at)} Uhr` : "–");

/** A column of moments (received, created, sent), each kept on one line. */
export const timeColumn = <Row,>(header: string, at: (row: Row) => Date | null): Column<Row> => ({
  header,
  cell: (row) => atTime(at(row)),
  className: "whitespace-nowrap",
});
