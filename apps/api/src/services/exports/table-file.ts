import { once } from "node:events";
import { PassThrough, Readable, type Writable } from "node:stream";
import { formatGermanDateTime } from "@app/shared";
import ExcelJS from "exceljs";

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A cell: text, a number, an instant (shown in Berlin time) or empty. */
export type Cell = string | number | Date | null;

export interface Column<Row> {
  /** German column header */
  header: string;
  /** column width in Excel, in characters */
  width: number;
  /** "datetime": the column's values are instants (shown as `DD.MM.YYYY HH:MM`, Berlin time) */
  kind?: "datetime";
  value: (row: Row) => Cell;
}

/** One table: a German sheet name, the columns and the rows, batch by batch as they come from the database. */
export interface Sheet<Row> {
  sheetName: string;
  columns: Column<Row>[];
  batches: AsyncIterable<Row[]>;
}

/**
 * One export. An XLSX file holds `moreSheets` as further sheets after the first; a CSV file is one table,
 * so it holds only the first (an export that has more offers them as CSV files of their own).
 */
export interface TableExport<Row> extends Sheet<Row> {
  moreSheets?: Sheet<Row>[];
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

const BOM = "\uFEFF";
const SEPARATOR = ";";

/** `DD.MM.YYYY HH:MM` in Berlin time, the form German Excel reads as a date and time. */
export const berlinDateTimeText = (at: Date) => formatGermanDateTime(at).replace(", ", " ");

/**
 * The Berlin wall-clock time as a Date whose UTC fields carry it: an XLSX cell has no time zone, and Excel
 * shows the UTC fields of what exceljs writes.
 */
function berlinWallClock(at: Date): Date {
  const [date = "", time = ""] = formatGermanDateTime(at).split(", ");
  const [d, m, y] = date.split(".").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0));
}

/**
 * A text cell as CSV: a leading = + - @ (or tab, carriage return) would make Excel run it as a formula, so it
 * gets an apostrophe (OWASP "CSV injection"; names and e-mails are typed by visitors); a value with the
 * separator, a quote or a line break is quoted, quotes doubled (RFC 4180).
 */
export function csvField(cell: Cell): string {
  if (cell === null) {
    return "";
  }
  if (typeof cell === "number") {
    return String(cell);
  }
  let text = cell instanceof Date ? berlinDateTimeText(cell) : cell;
  if (typeof cell === "string" && /^[=+\-@\t\r]/.test(text)) {
    text = `'${text}`;
  }
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: Cell[]) => `${cells.map(csvField).join(SEPARATOR)}\r\n`;

/** UTF-8 with BOM, `;`-separated, CRLF: what German Excel opens directly (ADR 0048). */
async function* csvChunks<Row>(table: TableExport<Row>): AsyncGenerator<string> {
  yield BOM + csvLine(table.columns.map((c) => c.header));
  for await (const rows of table.batches) {
    let chunk = "";
    for (const row of rows) {
      chunk += csvLine(table.columns.map((c) => c.value(row)));
    }
    yield chunk;
  }
}

/** Bytes a writable holds that its reader has not taken yet (archiver's streams predate `writableLength`). */
const backlog = (stream: Writable) =>
  stream.writableLength ??
  (stream as unknown as { _writableState?: { length: number } })._writableState?.length ??
  0;

/** Up to this much XML may wait for the compressor: a few batches, far below the file. */
const MAX_BACKLOG = 512 * 1024;

/**
 * Resolves once each of `streams` holds less than MAX_BACKLOG, or the download is closed (cancelled): a
 * closed download never drains, so waiting stops with it.
 */
async function drained(streams: Writable[], download: PassThrough): Promise<void> {
  for (const stream of streams) {
    while (backlog(stream) > MAX_BACKLOG && !download.destroyed) {
      const controller = new AbortController();
      const { signal } = controller;
      await Promise.race([once(stream, "drain", { signal }), once(download, "close", { signal })])
        .catch(() => {})
        .finally(() => controller.abort());
    }
  }
}

/**
 * exceljs writes a sheet's XML into the zip's input (a PassThrough of archiver) without waiting, and
 * compressing is slower than reading rows from PostgreSQL: the XML would pile up there (20 MB for 100,000
 * rows in a test). Its internals (exceljs 4.4.0, pinned) give us that input to wait on.
 */
const zipInputOf = (sheet: ExcelJS.Worksheet): Writable | undefined =>
  (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];

/**
 * The XLSX workbook with exceljs' streaming writer: every row is committed (written and forgotten) at
 * once, strings are written inline (the shared-strings table would keep every text in memory), and each
 * batch waits until the zip has taken what was written and the download what was zipped.
 */
async function writeWorkbook<Row>(table: TableExport<Row>, output: PassThrough): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  for (const sheet of [table, ...(table.moreSheets ?? [])]) {
    if (!(await writeSheet(workbook, sheet, output))) {
      return;
    }
  }
  await workbook.commit();
}

/** One sheet of the workbook, committed; false when the download was closed on the way. */
async function writeSheet<Row>(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  table: Sheet<Row>,
  output: PassThrough,
): Promise<boolean> {
  const sheet = workbook.addWorksheet(table.sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  // a date column's format is set once on the column: every cell added later takes the column's style
  sheet.columns = table.columns.map((c) => ({
    header: c.header,
    width: c.width,
    ...(c.kind === "datetime" && { style: { numFmt: "dd.mm.yyyy hh:mm" } }),
  }));
  sheet.getRow(1).font = { bold: true };
  for await (const rows of table.batches) {
    if (output.destroyed) {
      return false;
    }
    for (const row of rows) {
      const added = sheet.addRow(
        table.columns.map((c) => {
          const value = c.value(row);
          return value instanceof Date ? berlinWallClock(value) : value;
        }),
      );
      added.commit();
    }
    const zipInput = zipInputOf(sheet);
    await drained(zipInput ? [zipInput, output] : [output], output);
  }
  sheet.commit();
  return true;
}

/**
 * The export with its first batch already read: a query that fails at once (a filter PostgreSQL refuses)
 * becomes an error answer instead of a 200 whose file breaks off after its header row. A query that fails
 * later ends the download with an error (the socket is destroyed), never with a short file that looks whole.
 */
export async function withFirstBatch<T extends TableExport<Row>, Row>(table: T): Promise<T> {
  const iterator = table.batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* batches(): AsyncGenerator<Row[]> {
    if (first.done) {
      return;
    }
    yield first.value;
    yield* { [Symbol.asyncIterator]: () => iterator };
  }
  return { ...table, batches: batches() };
}

/** The export as a stream of bytes; rows are read from the database only as fast as the download takes them. */
export function exportStream<Row>(table: TableExport<Row>, format: ExportFormat): Readable {
  if (format === "csv") {
    return Readable.from(csvChunks(table), { objectMode: false });
  }
  const output = new PassThrough();
  writeWorkbook(table, output).catch((error: unknown) => output.destroy(error as Error));
  return output;
}
