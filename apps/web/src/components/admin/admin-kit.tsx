import { ADMIN_PAGE_SIZE, MSG } from "@app/shared";
import { ChevronLeftIcon, ChevronRightIcon, PencilIcon, Trash2Icon } from "lucide-react";
import { type ComponentProps, type FormEvent, type ReactNode, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { alerts, errorBody } from "@/lib/alerts";

/** 'Fehler beim Laden der Daten' with what could not be loaded (spec section 8). */
export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  const text = `${what} konnten nicht geladen werden. Bitte wenden Sie sich an den technischen Support, wenn das Problem bestehen bleibt.`;
  useEffect(() => {
    void alerts.error({ title: MSG.adminLoadFailedTitle, detail: text });
  }, [text]);
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{MSG.adminLoadFailedTitle}</p>
      <p className="mt-1">{text}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
        Erneut versuchen
      </Button>
    </div>
  );
}

/** Asks 'Sind Sie sich sicher?' and deletes; failures show 'Fehler beim Löschen der Daten'. */
export async function confirmDelete(options: {
  detail: string;
  run: () => Promise<unknown>;
  success: string;
  failure: string;
}): Promise<boolean> {
  const confirmed = await alerts.confirm({
    title: MSG.deleteConfirmTitle,
    detail: options.detail,
    confirmLabel: MSG.deleteConfirmButton,
  });
  if (!confirmed) {
    return false;
  }
  try {
    await options.run();
    alerts.success(options.success);
    return true;
  } catch (error) {
    const body = errorBody(error);
    await alerts.error({ title: MSG.adminDeleteFailedTitle, detail: body.detail || options.failure });
    return false;
  }
}

/** `value`, once it has not changed for `ms` (search fields that query the server). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Client-side paging of a loaded list, 10 rows per page. */
export function usePaged<T>(items: T[]) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(items.length / ADMIN_PAGE_SIZE));
  const current = Math.min(page, pages);
  return {
    rows: items.slice((current - 1) * ADMIN_PAGE_SIZE, current * ADMIN_PAGE_SIZE),
    page: current,
    pages,
    setPage,
  };
}

/** One page of a list paged on the server (`{items, total, totalExact, page, pageSize}` answers). */
export interface ServerPage {
  page: number;
  pageSize: number;
  total: number;
  totalExact: boolean;
}

/** The pager under a table whose pages come from the server. */
export function ServerPager({ data, onPage }: { data: ServerPage; onPage: (p: number) => void }) {
  return (
    <Pager
      page={data.page}
      pages={Math.max(1, Math.ceil(data.total / data.pageSize))}
      onPage={onPage}
      total={data.total}
      exact={data.totalExact}
    />
  );
}

export function Pager({
  page,
  pages,
  onPage,
  total,
  exact = true,
}: {
  page: number;
  pages: number;
  onPage: (p: number) => void;
  total: number;
  /** false when the server stopped counting early (very large tables): "mindestens …" */
  exact?: boolean;
}) {
  if (total <= ADMIN_PAGE_SIZE) {
    return null;
  }
  return (
    <nav aria-label="Seiten" className="mt-3 flex items-center justify-end gap-2 text-sm">
      <span className="text-slate-600">
        {exact
          ? `Seite ${page} von ${pages} (${total.toLocaleString("de-DE")} Einträge)`
          : `Seite ${page} (mindestens ${total.toLocaleString("de-DE")} Einträge)`}
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

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A table with loading and empty states. */
export function DataTable<T extends { id: number }>({
  label,
  columns,
  rows,
  loading,
  empty,
}: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  loading: boolean;
  empty: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <Table aria-label={label} aria-busy={loading}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => (
              <TableHead key={c.header} className={c.className}>
                {c.header}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading && (
            <TableRow>
              <TableCell colSpan={columns.length} className="text-slate-600">
                Wird geladen …
              </TableCell>
            </TableRow>
          )}
          {!loading && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={columns.length} className="text-slate-600">
                {empty}
              </TableCell>
            </TableRow>
          )}
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

export const yesNo = (value: boolean) => (value ? "Ja" : "Nein");

/** The edit dialog of every admin table: title, the form's fields, Abbrechen and Speichern. */
export function EditDialog({
  title,
  onClose,
  onSubmit,
  pending,
  wide = false,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  pending: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size={wide ? "3xl" : "xl"}>
        <DialogTitle>{title}</DialogTitle>
        <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
          {children}
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" disabled={pending}>
              Speichern
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Edit and delete buttons of a table row, named after the row for screen readers. */
export function RowActions({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <div className="flex gap-1">
      <Button variant="ghost" size="icon" aria-label={`${name} bearbeiten`} onClick={onEdit}>
        <PencilIcon aria-hidden="true" className="size-4" />
      </Button>
      <Button variant="ghost" size="icon" aria-label={`${name} löschen`} onClick={onDelete}>
        <Trash2Icon aria-hidden="true" className="size-4" />
      </Button>
    </div>
  );
}

/** A native select with a "Bitte wählen …" entry. */
export function Select({
  options,
  ...props
}: ComponentProps<"select"> & { options: { id: number; label: string }[] }) {
  return (
    <select className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm" {...props}>
      <option value="">Bitte wählen …</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function Textarea(props: ComponentProps<"textarea">) {
  return <textarea rows={4} className="rounded-md border border-slate-300 px-3 py-2 text-sm" {...props} />;
}
