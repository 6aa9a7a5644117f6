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
 */
export function useFilters<F extends Record<string, string>>(defaults: F) {
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
  return { shown, applied, page, setPage, set };
}

/** The page of a section without filters, kept in its address like a filtered one's (`useFilters`). */
export const usePaging = (): Paging => useFilters(NO_FILTERS);
const NO_FILTERS = {};

export type Filters<F extends Record<string, string>> = ReturnType<typeof useFilters<F>>;

/** One field of a filter bar: typed search text, a day, or a choice with "Alle" (no filter) first. */
export type FilterField<N extends string> = { name: N; label: string } & (
  | { kind: "search" | "date" }
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
  return { ...useFilters(startValues(fields, initial)), fields };
}

/** Each field's first value: as `initial` gives it (the payment notifications' order number), else empty. */
export const startValues = <N extends string>(
  fields: FilterField<N>[],
  initial: Partial<Record<N, string>>,
) => Object.fromEntries(fields.map((f) => [f.name, initial[f.name] ?? ""])) as Record<N, string>;

/** What a filter bar needs of the filter state, whatever its field names. */
export interface FilterBarState {
  shown: Record<string, string>;
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
  state: Pick<FilterBarState, "shown" | "set">;
  field: FilterField<string>;
  placeholder?: string;
}) {
  const { name, kind } = field;
  return (
    <FormField label={field.label} className="min-w-0">
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
