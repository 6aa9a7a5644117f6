import { describe, expect, it } from "vitest";
import { toErrorBody } from "./errors";

describe("toErrorBody", () => {
  it("keeps a given title and detail", () => {
    expect(toErrorBody({ title: "A", detail: "B" })).toEqual({ title: "A", detail: "B" });
  });

  it("falls back to the spec's defaults for anything missing or empty", () => {
    const fallback = {
      title: "Ein Fehler ist aufgetreten",
      detail: "Ein interner Server-Fehler ist aufgetreten",
    };
    expect(toErrorBody(undefined)).toEqual(fallback);
    expect(toErrorBody("boom")).toEqual(fallback);
    expect(toErrorBody({ title: " ", detail: 3 })).toEqual(fallback);
    expect(toErrorBody({ detail: "Nur Detail" })).toEqual({ title: fallback.title, detail: "Nur Detail" });
  });
});
