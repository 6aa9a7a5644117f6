import { type ReactNode, useEffect, useRef, useState } from "react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, type SelectOption } from "@/components/ui/select";
import { cn } from "@/lib/utils";

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
 * The filter values of a table and its page. `shown` is what the fields show; `applied` (trimmed) is what
 * the query asks with: typed search text once it rests for 300 ms, a choice at once. Every change goes back
 * to page 1.
 */
export function useFilters<F extends Record<string, string>>(initial: F) {
  const [shown, setShown] = useState(initial);
  const [applied, setApplied] = useState(() => trimmed(initial));
  const [page, setPage] = useState(1);
  const latest = useRef(initial);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const set = (name: keyof F, value: string, debounce = false) => {
    latest.current = { ...latest.current, [name]: value };
    setShown(latest.current);
    setPage(1);
    clearTimeout(timer.current);
    const apply = () => setApplied(trimmed(latest.current));
    if (debounce) {
      timer.current = setTimeout(apply, DEBOUNCE_MS);
    } else {
      apply();
    }
  };
  return { shown, applied, page, setPage, set };
}

export type Filters<F extends Record<string, string>> = ReturnType<typeof useFilters<F>>;

interface FilterProps<F extends Record<string, string>> {
  filters: Filters<F>;
  name: keyof F & string;
  label: string;
  className?: string;
}

const BAR_COLUMNS = {
  1: "w-full max-w-sm",
  2: "w-full sm:grid-cols-2",
  3: "w-full sm:grid-cols-3",
  5: "w-full sm:grid-cols-2 lg:grid-cols-5",
};

/** The filter fields above a table, in as many columns as there are fields (on wide screens). */
export function FilterBar({ columns, children }: { columns: keyof typeof BAR_COLUMNS; children: ReactNode }) {
  return <div className={cn("grid gap-3", BAR_COLUMNS[columns])}>{children}</div>;
}

/**
 * A search field (the table follows once typing rests) or a day (`JJJJ-MM-TT` from the browser's date
 * field, applied at once).
 */
export function FilterInput<F extends Record<string, string>>({
  filters,
  name,
  label,
  className,
  type = "search",
}: FilterProps<F> & { type?: "search" | "date" }) {
  return (
    <FormField label={label} className={className}>
      <Input
        type={type}
        value={filters.shown[name]}
        onChange={(e) => filters.set(name, e.target.value, type === "search")}
      />
    </FormField>
  );
}

/** A choice with "Alle" (no filter) first, or another first entry such as "Bitte wählen …". */
export function FilterSelect<F extends Record<string, string>>({
  filters,
  name,
  label,
  className,
  options,
  placeholder = "Alle",
}: FilterProps<F> & { options: SelectOption[]; placeholder?: string }) {
  return (
    <FormField label={label} className={className}>
      <Select
        options={options}
        placeholder={placeholder}
        value={filters.shown[name]}
        onChange={(e) => filters.set(name, e.target.value)}
      />
    </FormField>
  );
}
