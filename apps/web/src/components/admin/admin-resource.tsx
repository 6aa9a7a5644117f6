import { MSG } from "@app/shared";
import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { createContext, type ReactNode, use, useState } from "react";
import { Button } from "@/components/ui/button";
import { Pagination, pageCount, type ServerPage, usePagination } from "@/components/ui/pagination";
import { type Column, DataTable } from "@/components/ui/table";
import { alerts, errorBody } from "@/lib/alerts";
import { FilterBar, type FilterBarState } from "./filters";
import { LoadError } from "./load-error";
import { EditorContext } from "./resource-editor";

export interface RemoveSpec<Row> {
  /** the procedure that deletes the row */
  run: (row: Row) => Promise<unknown>;
  /** what the question 'Sind Sie sich sicher?' says will go */
  detail: (row: Row) => string;
  success: string;
  failure: string;
}

/** The name of the administration's section on screen (its navigation label), which names its table. */
export const SectionLabel = createContext("");

export interface AdminResourceProps<Row extends { id: number }> {
  /** names the section and the table; the section's label (`SectionLabel`) unless given */
  label?: string;
  /** what the rows are, in the plural, for the texts below; the label unless given */
  items?: string;
  /** what could not be loaded; "Die <items>" unless given */
  what?: string;
  /**
   * the list query's options (`trpc.….queryOptions(input)`): a whole list (paged here) or one page of it
   * (paged on the server: give `onPage`); while another page or filter loads, the rows shown stay
   */
  // biome-ignore lint/suspicious/noExplicitAny: any procedure's answer, error and key
  list: UseQueryOptions<any, any, Row[] | ServerPage<Row>, any>;
  /** the page a server-paged list asks for; the filter state's page when there is a filter bar */
  onPage?: (page: number) => void;
  columns: Column<Row>[];
  /** the empty table: "Keine <items> gefunden." with a filter bar, else "Noch keine <items>.", unless given */
  empty?: string;
  /** the queries a save or a delete changes; the list's router (e.g. `admin.congresses`) unless given */
  invalidates?: QueryKey;
  intro?: ReactNode;
  /** the filter bar (`useFilterBar`); its state also keeps the page of a server-paged list */
  filters?: FilterBarState;
  /** other controls on the filters' side (a choice with a button beside it) */
  toolbar?: ReactNode;
  /** buttons beside the filters (exports) */
  actions?: ReactNode;
  /** the text of the create button, which opens `editor` without a row */
  create?: string;
  /** the edit dialog of a row, or of a new record (`null`); a `ResourceEditor` */
  editor?: (row: Row | null) => ReactNode;
  remove?: RemoveSpec<Row>;
  /** the row's name for screen readers: "… bearbeiten", "… löschen" */
  rowName?: (row: Row) => string;
  /** below the table */
  children?: ReactNode;
}

/**
 * One admin table: filters, a paged table by a column list, the create button, the edit dialog, the delete
 * question and the spec's alerts. A tab is its columns, its form and its procedures.
 */
export function AdminResource<Row extends { id: number }>(props: AdminResourceProps<Row>) {
  const { list, columns, editor, remove, rowName, create, filters, toolbar, actions } = props;
  const label = props.label ?? use(SectionLabel);
  const items = props.items ?? label;
  const queryClient = useQueryClient();
  const query = useQuery({ ...list, placeholderData: keepPreviousData });
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const onPage = props.onPage ?? filters?.setPage;
  const { rows, pager } = usePagination(query.data, onPage);
  const deletion = useMutation({ mutationFn: (row: Row) => (remove ? remove.run(row) : Promise.resolve()) });
  const saved = () =>
    queryClient.invalidateQueries({ queryKey: props.invalidates ?? routerKey(list.queryKey) });

  // a delete that emptied the last page of a server-paged table shows the new last page
  const leaveEmptyPage = () => {
    const data: Row[] | ServerPage<Row> | undefined = queryClient.getQueryData(list.queryKey);
    if (onPage && data && !Array.isArray(data) && data.items.length === 0 && data.page > 1) {
      onPage(pageCount(data.total, data.pageSize));
    }
  };

  if (query.isError) {
    return <LoadError what={props.what ?? `Die ${items}`} onRetry={() => void query.refetch()} />;
  }
  const onDelete = async (row: Row) => {
    if (remove && (await confirmDelete(remove.detail(row)))) {
      try {
        await deletion.mutateAsync(row);
        await saved();
        leaveEmptyPage();
        alerts.success(remove.success);
      } catch (error) {
        await alerts.error({
          title: MSG.adminDeleteFailedTitle,
          detail: errorBody(error).detail || remove.failure,
        });
      }
    }
  };
  const withActions =
    rowName && (editor || remove)
      ? [
          ...columns,
          {
            header: "Aktionen",
            cell: (row: Row) => (
              <RowActions
                name={rowName(row)}
                onEdit={editor && (() => setEditing({ row }))}
                onDelete={remove && (() => void onDelete(row))}
              />
            ),
          },
        ]
      : columns;

  return (
    <section aria-label={label}>
      {props.intro && <p className="mb-3 text-sm text-slate-700">{props.intro}</p>}
      {(filters || toolbar || actions || create) && (
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          {filters && <FilterBar state={filters} />}
          {toolbar}
          <div className="ml-auto flex flex-wrap items-center gap-3">
            {actions}
            {create && editor && (
              <Button onClick={() => setEditing({ row: null })}>
                <PlusIcon aria-hidden="true" className="size-4" /> {create}
              </Button>
            )}
          </div>
        </div>
      )}
      <DataTable
        label={label}
        loading={query.isPending}
        empty={props.empty ?? emptyText(items, filters !== undefined)}
        rows={rows}
        columns={withActions}
      />
      <Pagination {...pager} />
      {props.children}
      {editing && editor && (
        <EditorContext value={{ close: () => setEditing(null), saved }}>{editor(editing.row)}</EditorContext>
      )}
    </section>
  );
}

/** An empty table: nothing matches the filters, or nothing has been made yet. */
export const emptyText = (items: string, filtered: boolean) =>
  filtered ? `Keine ${items} gefunden.` : `Noch keine ${items}.`;

/**
 * The router of a tRPC query key: `[["admin", "congresses", "list"], {input, type}]` becomes the `pathKey()`
 * of `admin.congresses`, which a save or a delete of its records changes.
 */
export const routerKey = (queryKey: QueryKey): QueryKey => {
  const [path] = queryKey;
  return Array.isArray(path) ? [path.slice(0, -1)] : [];
};

/** 'Sind Sie sich sicher?' with what will be deleted. */
const confirmDelete = (detail: string) =>
  alerts.confirm({ title: MSG.deleteConfirmTitle, detail, confirmLabel: MSG.deleteConfirmButton });

/** Edit and delete buttons of a table row, named after the row for screen readers. */
export function RowActions({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
}) {
  return (
    <div className="flex gap-1">
      {onEdit && (
        <Button variant="ghost" size="icon" aria-label={`${name} bearbeiten`} onClick={onEdit}>
          <PencilIcon aria-hidden="true" className="size-4" />
        </Button>
      )}
      {onDelete && (
        <Button variant="ghost" size="icon" aria-label={`${name} löschen`} onClick={onDelete}>
          <Trash2Icon aria-hidden="true" className="size-4" />
        </Button>
      )}
    </div>
  );
}

export const yesNo = (value: boolean) => (value ? "Ja" : "Nein");
