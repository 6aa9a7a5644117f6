import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, newToken, randomBytesPooled, safeEqual } from "./tokens";

describe("randomBytesPooled", () => {
  it("hands out each byte once, across refills of the pool", () => {
    const drawn = Array.from({ length: 600 }, () => randomBytesPooled(32).toString("hex"));
    // 600 × 32 bytes is more than four fills of the 4 KiB pool
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it("gives a copy that later draws do not change", () => {
    const first = randomBytesPooled(16);
    const copy = Buffer.from(first);
    for (let i = 0; i < 300; i++) {
      randomBytesPooled(16);
    }
    expect(first.equals(copy)).toBe(true);
    expect(first.equals(Buffer.alloc(16))).toBe(false);
  });

  it("refuses more than the pool holds", () => {
    expect(() => randomBytesPooled(4097)).toThrow(RangeError);
  });
});

describe("tokens", () => {
  it("are 256 bits, base64url, stored as their SHA-256", () => {
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
