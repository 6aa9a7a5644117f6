import { type ComponentProps, type ReactNode, useCallback, useState } from "react";
import { cn } from "@/lib/utils";

/**
 * A table in a frame that scrolls sideways when the table is wider than the room it has (a phone, the
 * administration's content beside its navigation). While it scrolls, the frame takes the keyboard focus, so
 * the arrow keys reach columns that have no button to tab to (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function Table({ className, ...props }: ComponentProps<"table">) {
  const [scrolls, setScrolls] = useState(false);
  const frame = useCallback((element: HTMLDivElement | null) => {
    if (!element) {
      return;
    }
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth));
    observer.observe(element);
    // rows arriving widen the table, not the frame
    if (element.firstElementChild) {
      observer.observe(element.firstElementChild);
    }
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={frame}
      // focused, the frame is announced by the table's name
      {...(scrolls && { tabIndex: 0, role: "group", "aria-label": props["aria-label"] })}
      className="relative w-full overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
export const TableHeader = (props: ComponentProps<"thead">) => (
  <thead className="border-b bg-slate-50" {...props} />
);
export const TableBody = ({ className, ...props }: ComponentProps<"tbody">) => (
  <tbody className={cn("divide-y", className)} {...props} />
);
export const TableRow = ({ className, ...props }: ComponentProps<"tr">) => (
  <tr className={cn("hover:bg-slate-50", className)} {...props} />
);
export const TableHead = ({ className, ...props }: ComponentProps<"th">) => (
  <th className={cn("px-3 py-2 text-left font-semibold text-slate-800", className)} scope="col" {...props} />
);
export const TableCell = ({ className, ...props }: ComponentProps<"td">) => (
  <td className={cn("px-3 py-2 align-top", className)} {...props} />
);

/** A row spanning the table with a message (loading, nothing found). */
export const TableMessage = ({ colSpan, children }: { colSpan: number; children: ReactNode }) => (
  <TableRow>
    <TableCell colSpan={colSpan} className="text-slate-600">
      {children}
    </TableCell>
  </TableRow>
);

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A table of rows by a column list, with loading and empty states. */
export function DataTable<T extends { id: number }>({
  label,
  columns,
  rows,
  loading,
  stale = false,
  empty,
}: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  loading: boolean;
  /** the rows are the last answer while another loads (a new filter): shown dimmed, their controls inert */
  stale?: boolean;
  empty: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <Table aria-label={label} aria-busy={loading || stale}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => (
              <TableHead key={c.header} className={c.className}>
                {c.header}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody inert={stale} className={cn(stale && "opacity-60")}>
          {loading && <TableMessage colSpan={columns.length}>Wird geladen …</TableMessage>}
          {!loading && rows.length === 0 && <TableMessage colSpan={columns.length}>{empty}</TableMessage>}
          {rows.map((row) => (
            <TableRow key={row.id}>
              {columns.map((c) => (
                <TableCell key={c.header} className={c.className}>
                  {c.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
