import { searchTooLong } from "@app/shared/text";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, type SelectOption } from "@/components/ui/select";
import { cn } from "@/lib/utils";
import type { Paging } from "./admin-resource";

const DEBOUNCE_MS = 300;

/** `value`, once it has not changed for `ms` (search fields that query the server). */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const trimmed = <F extends Record<string, string>>(values: F): F =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as F;

/** The longest text (trimmed) a search field's query takes, by the field's name (`SEARCH_MAX`). */
export type FilterLimits = Partial<Record<string, number>>;

/**
 * What is wrong with the filter texts as typed: "Der Suchbegriff darf höchstens 200 Zeichen lang sein."
 * for each one longer than its query takes (the server refuses it, the address would drop it).
 */
export function filterProblems(values: Record<string, string>, limits: FilterLimits): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).flatMap(([name, value]) => {
      const max = limits[name];
      return max !== undefined && value.trim().length > max ? [[name, searchTooLong(max)]] : [];
    }),
  );
}

/**
 * The filter values a section's address holds (`defaults` for those it does not) and its page, for its
 * page query: `xPage(...fromSearch(DEFAULTS, search))` in the route's loader asks what the section asks.
 */
export function fromSearch<F extends Record<string, string>>(
  defaults: F,
  search: Record<string, unknown>,
): [filters: F, page: number] {
  const filters = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => {
      const given = search[name];
      return [name, typeof given === "string" ? given : value];
    }),
  ) as F;
  return [filters, typeof search.page === "number" ? search.page : 1];
}

/**
 * The filter values of a table and its page, kept in the section's address (`?name=…&page=2`), so a
 * filtered page can be bookmarked and Back goes to the page before. `shown` is what the fields show;
 * `applied` (trimmed) is what the address and the query hold: typed search text once it rests for 300 ms,
 * a choice at once. Every change goes back to page 1 and replaces the address (typing adds no history);
 * another page adds an entry. When the address changes by other means (Back, a link), the fields follow.
 * A text longer than its query takes (`limits`) stays in its field with `problems` saying so, and nothing
 * is applied meanwhile: the table keeps what it shows instead of losing the filter.
 */
export function useFilters<F extends Record<string, string>>(defaults: F, limits: FilterLimits = {}) {
  const navigate = useNavigate();
  const [applied, page] = fromSearch(defaults, useSearch({ strict: false }));
  const appliedKey = JSON.stringify(applied);
  const [shown, setShown] = useState(applied);
  const latest = useRef(applied);
  // the filters this state last put into the address
  const written = useRef(appliedKey);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (appliedKey !== written.current) {
      clearTimeout(timer.current);
      written.current = appliedKey;
      latest.current = JSON.parse(appliedKey);
      setShown(latest.current);
    }
  }, [appliedKey]);

  const go = (filters: Partial<F>, next: number, replace: boolean) =>
    void navigate({
      to: ".",
      search: (prev: Record<string, unknown>) => ({
        ...prev,
        ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v || undefined])),
        page: next > 1 ? next : undefined,
      }),
      replace,
      resetScroll: false,
    });
  const setPage = (next: number) => go({}, next, false);
  const set = (name: keyof F, value: string, debounce = false) => {
    latest.current = { ...latest.current, [name]: value };
    setShown(latest.current);
    clearTimeout(timer.current);
    if (Object.keys(filterProblems(latest.current, limits)).length > 0) {
      return;
    }
    const apply = () => {
      const values = trimmed(latest.current);
      written.current = JSON.stringify(values);
      go(values, 1, true);
    };
    if (debounce) {
      timer.current = setTimeout(apply, DEBOUNCE_MS);
    } else {
      apply();
    }
  };
  return { shown, applied, page, setPage, set, problems: filterProblems(shown, limits) };
}

/** The page of a section without filters, kept in its address like a filtered one's (`useFilters`). */
export const usePaging = (): Paging => useFilters(NO_FILTERS);
const NO_FILTERS = {};

export type Filters<F extends Record<string, string>> = ReturnType<typeof useFilters<F>>;

/**
 * One field of a filter bar: typed search text (at most `maxLength` characters, the server's
 * `SEARCH_MAX`), a day, or a choice with "Alle" (no filter) first.
 */
export type FilterField<N extends string> = { name: N; label: string } & (
  | { kind: "search"; maxLength: number }
  | { kind: "date" }
  | { kind: "select"; options: SelectOption[] }
);

/**
 * The filter state of a table with a filter bar: `useFilters` over the fields' names (each starting as
 * `initial` gives it, else empty) and the fields, in the order `AdminResource` shows them. Select options
 * may change from render to render (a list that loads).
 */
export function useFilterBar<N extends string>(
  fields: FilterField<N>[],
  initial: Partial<Record<N, string>> = {},
) {
  return { ...useFilters(startValues(fields, initial), searchLimits(fields)), fields };
}

/** The longest text of each search field, by its name. */
export const searchLimits = <N extends string>(fields: FilterField<N>[]): FilterLimits =>
  Object.fromEntries(fields.flatMap((f) => (f.kind === "search" ? [[f.name, f.maxLength]] : [])));

/** Each field's first value: as `initial` gives it (the payment notifications' order number), else empty. */
export const startValues = <N extends string>(
  fields: FilterField<N>[],
  initial: Partial<Record<N, string>>,
) => Object.fromEntries(fields.map((f) => [f.name, initial[f.name] ?? ""])) as Record<N, string>;

/** What a filter bar needs of the filter state, whatever its field names. */
export interface FilterBarState {
  shown: Record<string, string>;
  /** the message of each field whose text is too long to be applied */
  problems: Record<string, string>;
  fields: FilterField<string>[];
  page: number;
  setPage(page: number): void;
  set(name: string, value: string, debounce?: boolean): void;
}

// by the number of fields: one column on phones, all side by side on wide screens (five in two steps)
const BAR_COLUMNS = [
  "w-full max-w-sm",
  "w-full sm:grid-cols-2",
  "w-full sm:grid-cols-3",
  "w-full sm:grid-cols-2",
  "w-full sm:grid-cols-2 lg:grid-cols-5",
];

/** The grid of a bar with `count` fields. */
export const barColumns = (count: number) => BAR_COLUMNS[Math.min(count, BAR_COLUMNS.length) - 1];

/** The filter fields above a table, in as many columns as there are fields (on wide screens). */
export function FilterBar({ state }: { state: FilterBarState }) {
  return (
    <div className={cn("grid gap-3", barColumns(state.fields.length))}>
      {state.fields.map((field) => (
        <FilterControl key={field.name} state={state} field={field} />
      ))}
    </div>
  );
}

/**
 * A search field (the table follows once typing rests), a day (`JJJJ-MM-TT` from the browser's date field,
 * applied at once) or a choice with "Alle" or another first entry (`placeholder`), applied at once.
 */
function FilterControl({
  state,
  field,
  placeholder = "Alle",
}: {
  state: Pick<FilterBarState, "shown" | "set"> & Partial<Pick<FilterBarState, "problems">>;
  field: FilterField<string>;
  placeholder?: string;
}) {
  const { name, kind } = field;
  return (
    <FormField label={field.label} error={state.problems?.[name]} className="min-w-0">
      {kind === "select" ? (
        <Select
          options={field.options}
          placeholder={placeholder}
          value={state.shown[name]}
          onChange={(e) => state.set(name, e.target.value)}
        />
      ) : (
        <Input
          type={kind}
          value={state.shown[name]}
          onChange={(e) => state.set(name, e.target.value, kind === "search")}
        />
      )}
    </FormField>
  );
}

/** A choice on its own, beside other controls (the mail templates' "Allgemeine Vorlagen"). */
export function FilterSelect<F extends Record<string, string>>({
  filters,
  placeholder,
  ...field
}: {
  filters: Filters<F>;
  name: keyof F & string;
  label: string;
  options: SelectOption[];
  placeholder?: string;
}) {
  return <FilterControl state={filters} field={{ ...field, kind: "select" }} placeholder={placeholder} />;
}
