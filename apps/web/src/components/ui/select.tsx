import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export interface SelectOption {
  value: string | number;
  label: string;
}

/**
 * A native select (the browser's own list on phones, typed search on desktops, `selectOption` in tests) with
 * an empty first entry: "Bitte wählen …" in forms, "Alle" in filters, none when `placeholder` is null.
 */
export function Select({
  options,
  placeholder = "Bitte wählen …",
  className,
  ...props
}: ComponentProps<"select"> & { options: SelectOption[]; placeholder?: string | null }) {
  return (
    <select
      className={cn(
        // a long option (an event's title) must not widen the page past a phone's screen
        "h-10 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-700",
        className,
      )}
      {...props}
    >
      {placeholder !== null && <option value="">{placeholder}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** Options of records with an id, named by `label` (events by title, packages by name). */
export const optionsOf = <T extends { id: number }>(rows: T[] | undefined, label: (row: T) => string) =>
  (rows ?? []).map((row): SelectOption => ({ value: row.id, label: label(row) }));

/** Options of a `{value: label}` map (the shared label tables). */
export const optionsOfLabels = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]): SelectOption => ({ value, label }));
