import { formatGermanDate, type IsoDate } from "@app/shared";

/**
 * A package available later says from when, to everybody (spec: "shows availability from that date"): on
 * the overview's card and on the package page, in the same words. The date is the Berlin calendar day the
 * server judged (`availableFrom`).
 */
export function Availability({ from }: { from: IsoDate }) {
  return <p className="text-sm font-medium text-slate-700">Verfügbar ab {formatGermanDate(from)}</p>;
}
