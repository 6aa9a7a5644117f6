import { isNotFound } from "@tanstack/react-router";
import { describe, expect, it } from "vitest";
import { idParams, parseId } from "./route-params";

describe("parseId", () => {
  it("takes positive integers up to the database's limit", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("42")).toBe(42);
    expect(parseId("2147483647")).toBe(2_147_483_647);
  });

  it.each([
    undefined,
    "",
    "0",
    "-1",
    "+1",
    "07",
    "1.0",
    "1e3",
    " 1",
    "0x10",
    "abc",
    "2147483648",
    "99999999999",
  ])("refuses %j", (value) => {
    expect(parseId(value)).toBeUndefined();
  });
});

describe("idParams", () => {
  const params = idParams("congressId");

  it("turns the segment into a number and back", () => {
    expect(params.parse({ congressId: "4" })).toEqual({ congressId: 4 });
    expect(params.stringify({ congressId: 4 })).toEqual({ congressId: "4" });
  });

  it("throws the router's not-found for an id that is not a positive integer", () => {
    let thrown: unknown;
    try {
      params.parse({ congressId: "abc" });
    } catch (error) {
      thrown = error;
    }
    expect(isNotFound(thrown)).toBe(true);
  });
});
