import { describe, expect, it } from "vitest";
import { afterLoginTarget } from "./guards";

describe("afterLoginTarget", () => {
  it("follows the spec's login redirect rules", () => {
    expect(afterLoginTarget({})).toBe("/");
    expect(afterLoginTarget({ congressId: "4", showVideo: "1" })).toBe("/congress/4");
    expect(afterLoginTarget({ congressId: "4" })).toBe("/participation/4");
  });

  it("returns to the original target, but never to another origin", () => {
    expect(afterLoginTarget({}, "/profile")).toBe("/profile");
    expect(afterLoginTarget({}, "//evil.example.com")).toBe("/");
    expect(afterLoginTarget({}, "https://evil.example.com")).toBe("/");
    expect(afterLoginTarget({ congressId: "7" }, "/profile")).toBe("/participation/7");
  });
});
