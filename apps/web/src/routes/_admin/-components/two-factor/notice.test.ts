import { describe, expect, it } from "vitest";
import { isNoticePostponed, NOTICE_PAUSE_MS, postponeNotice } from "./notice";

/** The part of the browser's Storage the notice uses, over a Map. */
function memoryStorage() {
  const items = new Map<string, string>();
  return () => ({
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  });
}

const DAY = 24 * 60 * 60 * 1000;
const t0 = Date.UTC(2026, 10, 2, 9, 0);

describe("the two-factor notice's pause", () => {
  it("hides the notice for a week after postponing, then shows it again", () => {
    const storage = memoryStorage();
    expect(isNoticePostponed(storage, 7, t0)).toBe(false);
    postponeNotice(storage, 7, t0);
    expect(isNoticePostponed(storage, 7, t0)).toBe(true);
    expect(isNoticePostponed(storage, 7, t0 + 7 * DAY - 1)).toBe(true);
    expect(isNoticePostponed(storage, 7, t0 + NOTICE_PAUSE_MS)).toBe(false);
  });

  it("is kept per admin", () => {
    const storage = memoryStorage();
    postponeNotice(storage, 7, t0);
    expect(isNoticePostponed(storage, 8, t0)).toBe(false);
  });

  it("asks again for a moment in the future, an unreadable value or a storage the browser refuses", () => {
    const storage = memoryStorage();
    postponeNotice(storage, 7, t0 + DAY);
    expect(isNoticePostponed(storage, 7, t0)).toBe(false);
    storage().setItem("two-factor-notice-postponed:7", "bald");
    expect(isNoticePostponed(storage, 7, t0)).toBe(false);
    const refused = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    expect(isNoticePostponed(refused, 7, t0)).toBe(false);
    expect(() => postponeNotice(refused, 7, t0)).not.toThrow();
  });
});
