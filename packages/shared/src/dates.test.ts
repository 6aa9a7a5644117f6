import { afterEach, describe, expect, it, vi } from "vitest";
import {
  addDays,
  berlinDate,
  berlinSecondOfDay,
  congressTiming,
  formatGermanDate,
  formatGermanDateTime,
} from "./dates";

describe("berlinDate", () => {
  it("uses Berlin's calendar, not UTC's", () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Berlin (UTC+1 in winter)
    expect(berlinDate(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    // 21:59 UTC in summer is 23:59 in Berlin (UTC+2): still the same day
    expect(berlinDate(new Date("2026-07-10T21:59:00Z"))).toBe("2026-07-10");
    expect(berlinDate(new Date("2026-07-10T22:00:00Z"))).toBe("2026-07-11");
  });

  it("handles the DST switch nights", () => {
    expect(berlinDate(new Date("2026-03-29T00:30:00Z"))).toBe("2026-03-29");
    expect(berlinDate(new Date("2026-10-24T22:30:00Z"))).toBe("2026-10-25");
  });

  describe("today's, kept for the minute", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("turns at Berlin's midnight, also when asked just before it", () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date("2026-07-10T21:59:59.999Z")); // 23:59:59.999 in Berlin
      expect(berlinDate()).toBe("2026-07-10");
      vi.setSystemTime(new Date("2026-07-10T22:00:00.000Z"));
      expect(berlinDate()).toBe("2026-07-11");
      vi.setSystemTime(new Date("2026-12-31T22:59:30Z"));
      expect(berlinDate()).toBe("2026-12-31");
      vi.setSystemTime(new Date("2026-12-31T23:00:00Z"));
      expect(berlinDate()).toBe("2027-01-01");
    });

    it("keeps a given instant's date by that instant's minute, not the system time's", () => {
      expect(berlinDate(new Date("2030-01-09T22:59:59.999Z"))).toBe("2030-01-09");
      expect(berlinDate(new Date("2030-01-09T23:00:00Z"))).toBe("2030-01-10");
      expect(berlinDate(new Date("2030-01-09T22:59:00Z"))).toBe("2030-01-09");
      expect(berlinDate(new Date("2030-01-09T23:00:59Z"))).toBe("2030-01-10");
    });

    it("follows the clock backwards too", () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date("2026-07-11T10:00:00Z"));
      expect(berlinDate()).toBe("2026-07-11");
      vi.setSystemTime(new Date("2026-07-10T10:00:00Z"));
      expect(berlinDate()).toBe("2026-07-10");
    });
  });
});

describe("addDays", () => {
  it("crosses months, years and DST changes by whole days", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});

describe("congressTiming", () => {
  it("treats a missing last day as a one-day event", () => {
    expect(congressTiming("2026-05-01", null, "2026-05-01")).toEqual({
      inProgress: true,
      inFuture: false,
      inPast: false,
    });
    expect(congressTiming("2026-05-01", null, "2026-05-02").inPast).toBe(true);
    expect(congressTiming("2026-05-01", null, "2026-04-30").inFuture).toBe(true);
  });

  it("is in progress on the first and the last day", () => {
    expect(congressTiming("2026-05-01", "2026-05-03", "2026-05-01").inProgress).toBe(true);
    expect(congressTiming("2026-05-01", "2026-05-03", "2026-05-03").inProgress).toBe(true);
    expect(congressTiming("2026-05-01", "2026-05-03", "2026-05-04")).toEqual({
      inProgress: false,
      inFuture: false,
      inPast: true,
    });
  });
});

describe("German formats", () => {
  it("formats calendar dates and instants in Berlin time", () => {
    expect(formatGermanDate("2026-03-09")).toBe("09.03.2026");
    expect(formatGermanDate(new Date("2026-12-31T23:30:00Z"))).toBe("01.01.2027");
    expect(formatGermanDateTime(new Date("2026-07-10T08:05:00Z"))).toBe("10.07.2026, 10:05");
  });
});

describe("berlinSecondOfDay", () => {
  it.each([
    ["2026-11-27T23:00:00Z", 0],
    ["2026-11-27T22:59:59Z", 86_399],
    ["2026-07-01T10:30:15Z", 12 * 3600 + 30 * 60 + 15],
    ["2026-03-29T01:00:00Z", 3 * 3600],
  ])("%s is second %i of the day in Berlin", (at, second) => {
    expect(berlinSecondOfDay(new Date(at))).toBe(second);
  });
});
