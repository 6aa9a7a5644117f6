import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, newToken, safeEqual } from "./tokens";

describe("tokens", () => {
  it("are 256 bits, base64url, each new, stored as their SHA-256", () => {
    const drawn = Array.from({ length: 600 }, () => newToken());
    expect(new Set(drawn).size).toBe(drawn.length);
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashToken(token)).toBe(createHash("sha256").update(token).digest("hex"));
  });

  it("compare equal only when equal", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
