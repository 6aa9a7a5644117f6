import { describe, expect, it } from "vitest";
import { MAX_ID } from "./constants";
import { ZId, ZRef, zId } from "./ids";

describe("ZId: the one id schema", () => {
  it("takes a positive integer, also as the string of a path or form field", () => {
    expect(ZId.parse("7")).toBe(7);
    expect(ZId.parse(7)).toBe(7);
    expect(ZId.parse(String(MAX_ID))).toBe(MAX_ID);
  });

  it.each([0, -1, 1.5, "0", "-1", "1.5", "abc", "", "1e400", MAX_ID + 1, null, {}])("refuses %j", (value) => {
    expect(ZId.safeParse(value).success).toBe(false);
  });

  it("says the form's message for every refusal when given one", () => {
    const id = zId("Bitte wählen Sie eine Veranstaltung.");
    for (const value of [undefined, "abc", 0, 1.5, MAX_ID + 1]) {
      const result = id.safeParse(value);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        "Bitte wählen Sie eine Veranstaltung.",
      ]);
    }
  });

  it("ZRef takes an id or an object carrying one", () => {
    expect(ZRef.parse("7")).toBe(7);
    expect(ZRef.parse({ id: 7, title: "Kongress" })).toBe(7);
    expect(ZRef.safeParse({ id: 0 }).success).toBe(false);
  });
});
