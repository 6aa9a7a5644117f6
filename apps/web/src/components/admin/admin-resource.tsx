import { MSG } from "@app/shared";
import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useRouterState } from "@tanstack/react-router";
import { PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { createContext, type ReactNode, use, useState } from "react";
import { Button } from "@/components/ui/button";
import { Pagination, pageCount, pageView, type ServerPage } from "@/components/ui/pagination";
import { type Column, DataTable } from "@/components/ui/table";
import { alerts, errorBody } from "@/lib/alerts";
import { FilterBar, type FilterBarState, usePaging } from "./filters";
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

/** A page and its setter (a filter state has both). */
export interface Paging {
  page: number;
  setPage(page: number): void;
}

export interface AdminResourceProps<Row extends { id: number }> {
  /** names the section and the table; the section's label (`SectionLabel`) unless given */
  label?: string;
  /** what the rows are, in the plural, for the texts below; the label unless given */
  items?: string;
  /** what could not be loaded; "Die <items>" unless given */
  what?: string;
  /**
   * the query of one page of the list (`(page) => trpc.….queryOptions({…, page})`, paged on the server); while
   * another page or filter loads, the rows shown stay
   */
  // biome-ignore lint/suspicious/noExplicitAny: any procedure's answer, error and key
  list: (page: number) => UseQueryOptions<any, any, ServerPage<Row>, any>;
  /**
   * where the page is kept: the filter state of a bar `AdminResource` does not draw (`toolbar`); else the
   * filter bar's state, else the section's address (`usePaging`)
   */
  paging?: Paging;
  columns: Column<Row>[];
  /** the empty table: "Keine <items> gefunden." with a filter bar, else "Noch keine <items>.", unless given */
  empty?: string;
  /** the queries a save or a delete changes; the list's router (e.g. `admin.congresses`) unless given */
  invalidates?: QueryKey;
  intro?: ReactNode;
  /** the filter bar (`useFilterBar`); its state also keeps the page, which goes back to 1 with every filter */
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
  const { columns, editor, remove, rowName, create, filters, toolbar, actions } = props;
  const label = props.label ?? use(SectionLabel);
  const items = props.items ?? label;
  const queryClient = useQueryClient();
  const ownPaging = usePaging();
  const { page, setPage } = props.paging ?? filters ?? ownPaging;
  const list = props.list(page);
  const query = useQuery({ ...list, placeholderData: keepPreviousData });
  // while a new filter or page loads (the section's loader, then the query), the rows on screen are the old
  // answer's: a click on them would edit another record than the one the filter now names
  const navigating = useRouterState({ select: (state) => state.status === "pending" });
  const { rows, pager } = pageView(query.data, setPage);
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const deletion = useMutation({ mutationFn: (row: Row) => (remove ? remove.run(row) : Promise.resolve()) });
  const saved = () =>
    queryClient.invalidateQueries({ queryKey: props.invalidates ?? routerKey(list.queryKey) });

  // a delete that emptied the last page shows the new last page
  const leaveEmptyPage = () => {
    const data: ServerPage<Row> | undefined = queryClient.getQueryData(list.queryKey);
    if (data && data.items.length === 0 && data.page > 1) {
      setPage(pageCount(data.total, data.pageSize));
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
        stale={navigating || query.isPlaceholderData}
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
const routerKey = (queryKey: QueryKey): QueryKey => {
  const [path] = queryKey;
  return Array.isArray(path) ? [path.slice(0, -1)] : [];
};

/** 'Sind Sie sich sicher?' with what will be deleted. */
const confirmDelete = (detail: string) =>
  alerts.confirm({ title: MSG.deleteConfirmTitle, detail, confirmLabel: MSG.deleteConfirmButton });

/** Edit and delete buttons of a table row, named after the row for screen readers. */
function RowActions({
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
