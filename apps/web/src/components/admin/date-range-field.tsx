import { formatGermanDate, type IsoDate } from "@app/shared";
import { type DateRange, DayPicker } from "react-day-picker";
import { de } from "react-day-picker/locale";
import "react-day-picker/style.css";

const toIso = (date: Date): IsoDate =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
const fromIso = (iso: IsoDate): Date => {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
};

export interface IsoRange {
  from: IsoDate | null;
  to: IsoDate | null;
}

/**
 * The event's date range in German, weeks starting on Monday. Two clicks are needed, also for a one-day
 * event (the same day twice).
 */
export function DateRangeField({
  value,
  onChange,
  error,
}: {
  value: IsoRange;
  onChange: (v: IsoRange) => void;
  error?: string;
}) {
  const selected: DateRange | undefined = value.from
    ? { from: fromIso(value.from), to: value.to ? fromIso(value.to) : undefined }
    : undefined;
  // the range follows the clicks alone: first click = first day, second click = last day (the same day for a
  // one-day event); a third click starts again
  const onSelect = (_range: DateRange | undefined, day: Date) => {
    const clicked = toIso(day);
    if (!value.from || value.to) {
      onChange({ from: clicked, to: null });
    } else if (clicked >= value.from) {
      onChange({ from: value.from, to: clicked });
    } else {
      onChange({ from: clicked, to: value.from });
    }
  };
  const summary = value.from
    ? value.to
      ? value.to === value.from
        ? `Eintägig am ${formatGermanDate(value.from)}`
        : `${formatGermanDate(value.from)} – ${formatGermanDate(value.to)}`
      : `Erster Tag ${formatGermanDate(value.from)}: bitte den letzten Tag wählen (bei eintägigen Veranstaltungen denselben Tag noch einmal).`
    : "Bitte wählen Sie den ersten und den letzten Tag.";
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="text-sm font-medium text-slate-800">Zeitraum</legend>
      <DayPicker
        mode="range"
        locale={de}
        weekStartsOn={1}
        selected={selected}
        onSelect={onSelect}
        defaultMonth={selected?.from ?? new Date()}
      />
      <p className="text-sm text-slate-700" aria-live="polite">
        {summary}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
