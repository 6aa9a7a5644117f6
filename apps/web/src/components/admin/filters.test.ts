import { describe, expect, it } from "vitest";
import { emptyText } from "./admin-resource";
import { barColumns, type FilterField, startValues } from "./filters";

const field = (name: string): FilterField<string> => ({ name, label: name, kind: "search" });

describe("a filter bar", () => {
  it("puts its fields side by side on wide screens: one narrow field, two, three, five in two steps", () => {
    expect(barColumns(1)).toBe("w-full max-w-sm");
    expect(barColumns(2)).toBe("w-full sm:grid-cols-2");
    expect(barColumns(3)).toBe("w-full sm:grid-cols-3");
    expect(barColumns(4)).toBe("w-full sm:grid-cols-2");
    expect(barColumns(5)).toBe("w-full sm:grid-cols-2 lg:grid-cols-5");
    expect(barColumns(7)).toBe(barColumns(5));
  });

  it("starts every field empty unless a first value is given (an order number from the URL)", () => {
    const fields: FilterField<string>[] = [
      field("orderNumber"),
      field("email"),
      { name: "outcome", label: "Ergebnis", kind: "select", options: [] },
    ];
    expect(startValues(fields, {})).toEqual({ orderNumber: "", email: "", outcome: "" });
    expect(startValues(fields, { orderNumber: "DS-1" })).toEqual({
      orderNumber: "DS-1",
      email: "",
      outcome: "",
    });
  });
});

describe("an empty admin table", () => {
  it("says nothing matched when it has filters, and that nothing is there yet when it has none", () => {
    expect(emptyText("Zahlungsmeldungen", true)).toBe("Keine Zahlungsmeldungen gefunden.");
    expect(emptyText("Veranstaltungen", false)).toBe("Noch keine Veranstaltungen.");
  });
});
