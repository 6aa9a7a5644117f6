import { ADMIN_PAGE_SIZE } from "@app/shared";
import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { Button } from "./button";

export interface PaginationProps {
  page: number;
  pages: number;
  total: number;
  /** false when the server stopped counting early (very large tables): "mindestens …" */
  exact?: boolean;
  onPage: (page: number) => void;
}

/** Zurück / Weiter under a table, with where the reader is; nothing while everything fits on one page. */
export function Pagination({ page, pages, total, exact = true, onPage }: PaginationProps) {
  if (total <= ADMIN_PAGE_SIZE) {
    return null;
  }
  const count = total.toLocaleString("de-DE");
  return (
    <nav aria-label="Seiten" className="mt-3 flex items-center justify-end gap-2 text-sm">
      <span className="text-slate-600">
        {exact
          ? `Seite ${page} von ${pages} (${count} Einträge)`
          : `Seite ${page} (mindestens ${count} Einträge)`}
      </span>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeftIcon aria-hidden="true" className="size-4" /> Zurück
      </Button>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Weiter <ChevronRightIcon aria-hidden="true" className="size-4" />
      </Button>
    </nav>
  );
}

/** One page of a list paged on the server (`{items, total, totalExact, page, pageSize}` answers). */
export interface ServerPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalExact: boolean;
}

export const pageCount = (total: number, pageSize = ADMIN_PAGE_SIZE) =>
  Math.max(1, Math.ceil(total / pageSize));

/** The rows of a page and the pager's props (nothing yet while the first page loads). */
export function pageView<T>(
  data: ServerPage<T> | undefined,
  onPage: (page: number) => void,
): { rows: T[]; pager: PaginationProps } {
  if (!data) {
    return { rows: [], pager: { page: 1, pages: 1, total: 0, onPage } };
  }
  const { items, page, pageSize, total, totalExact } = data;
  return {
    rows: items,
    pager: { page, pages: pageCount(total, pageSize), total, exact: totalExact, onPage },
  };
}
