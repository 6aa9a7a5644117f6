import { describe, expect, it } from "vitest";
import { emptyText } from "./admin-resource";
import { barColumns, type FilterField, filterProblems, searchLimits, startValues } from "./filters";

const field = (name: string): FilterField<string> => ({ name, label: name, kind: "search", maxLength: 100 });

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

describe("a search text longer than its query takes", () => {
  it("is named under its field with the real limit; trimmed spaces and choices do not count", () => {
    const fields: FilterField<string>[] = [
      { name: "name", label: "Name", kind: "search", maxLength: 200 },
      { name: "email", label: "E-Mail", kind: "search", maxLength: 254 },
      { name: "outcome", label: "Ergebnis", kind: "select", options: [] },
    ];
    const limits = searchLimits(fields);
    expect(limits).toEqual({ name: 200, email: 254 });
    expect(filterProblems({ name: "x".repeat(300), email: "a@b", outcome: "x".repeat(300) }, limits)).toEqual(
      {
        name: "Der Suchbegriff darf höchstens 200 Zeichen lang sein.",
      },
    );
    expect(filterProblems({ name: ` ${"x".repeat(200)} `, email: "", outcome: "" }, limits)).toEqual({});
  });
});

describe("an empty admin table", () => {
  it("says nothing matched when it has filters, and that nothing is there yet when it has none", () => {
    expect(emptyText("Zahlungsmeldungen", true)).toBe("Keine Zahlungsmeldungen gefunden.");
    expect(emptyText("Veranstaltungen", false)).toBe("Noch keine Veranstaltungen.");
  });
});
