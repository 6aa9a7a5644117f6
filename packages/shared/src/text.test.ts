import { describe, expect, it } from "vitest";
import { countOf, cutText } from "./text";

describe("cutText", () => {
  it("keeps short texts and cuts long ones at the limit", () => {
    expect(cutText("kurz", 100)).toEqual({ text: "kurz", cut: false });
    expect(cutText("a".repeat(100), 100).cut).toBe(false);
    const long = cutText(`${"b".repeat(30)} weiter`, 30);
    expect(long).toEqual({ text: `${"b".repeat(30)}…`, cut: true });
  });

  it("never splits a character made of two code units", () => {
    expect(cutText("😀😀😀", 2).text).toBe("😀😀…");
  });
});

describe("countOf", () => {
  it("says one thing in the singular, any other number in the plural", () => {
    expect(countOf(1, "Video", "Videos")).toBe("1 Video");
    expect(countOf(0, "Video", "Videos")).toBe("0 Videos");
    expect(countOf(0, "Bestellung", "Bestellungen")).toBe("0 Bestellungen");
    expect(countOf(1, "Bestellung", "Bestellungen")).toBe("1 Bestellung");
    expect(countOf(2, "Bestellung", "Bestellungen")).toBe("2 Bestellungen");
    expect(countOf(3, "Vorlage", "Vorlagen")).toBe("3 Vorlagen");
  });
});
