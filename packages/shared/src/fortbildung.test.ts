import { describe, expect, it } from "vitest";
import {
  type DayFacts,
  dayOutcome,
  type FortbildungRules,
  fortbildungDayLine,
  ZHeartbeatInput,
} from "./fortbildung";

const rules = (over: Partial<FortbildungRules> = {}): FortbildungRules => ({
  requiredPercent: 80,
  pointsPerDay: null,
  presenceChecksRequired: 0,
  ...over,
});
const facts = (over: Partial<DayFacts> = {}): DayFacts => ({
  contentSeconds: 180 * 60,
  attendedSeconds: 0,
  checksPassed: 0,
  ...over,
});

describe("dayOutcome", () => {
  it.each([
    // attended seconds, reached: 144 of 180 minutes (80%) is the boundary, in whole minutes
    [144 * 60, true],
    [144 * 60 - 1, false],
    [143 * 60 + 59, false],
    [180 * 60, true],
    [999 * 60, true],
    [0, false],
  ])("180 minutes of content, %i seconds attended: reached %s", (attendedSeconds, reached) => {
    const outcome = dayOutcome(rules(), facts({ attendedSeconds }));
    expect(outcome.reached).toBe(reached);
    expect(outcome.requiredMinutes).toBe(144);
    expect(outcome.contentMinutes).toBe(180);
  });

  it.each([
    // content minutes, percent, required minutes (rounded up)
    [180, 80, 144],
    [7, 80, 6],
    [45, 80, 36],
    [100, 100, 100],
    [100, 1, 1],
    [59, 50, 30],
  ])("%i minutes at %i%% ask for %i minutes", (minutes, requiredPercent, required) => {
    expect(
      dayOutcome(rules({ requiredPercent }), facts({ contentSeconds: minutes * 60 })).requiredMinutes,
    ).toBe(required);
  });

  it("counts only whole minutes of content and attendance", () => {
    const outcome = dayOutcome(
      rules(),
      facts({ contentSeconds: 60 * 60 + 59, attendedSeconds: 48 * 60 + 59 }),
    );
    expect(outcome).toMatchObject({
      contentMinutes: 60,
      attendedMinutes: 48,
      requiredMinutes: 48,
      reached: true,
    });
  });

  it("never shows more attended minutes than the day has", () => {
    expect(dayOutcome(rules(), facts({ attendedSeconds: 500 * 60 })).attendedMinutes).toBe(180);
  });

  it.each([
    // content minutes, points: 1 per 45 full minutes
    [44, 0],
    [45, 1],
    [89, 1],
    [90, 2],
    [180, 4],
    [360, 8],
  ])("%i minutes of content earn %i points once reached", (minutes, points) => {
    const reached = dayOutcome(
      rules(),
      facts({ contentSeconds: minutes * 60, attendedSeconds: minutes * 60 }),
    );
    expect(reached.points).toBe(points);
  });

  it("takes the organiser's points of the day, and gives none before the rule is reached", () => {
    expect(dayOutcome(rules({ pointsPerDay: 6 }), facts({ attendedSeconds: 180 * 60 })).points).toBe(6);
    expect(dayOutcome(rules({ pointsPerDay: 6 }), facts({ attendedSeconds: 100 * 60 })).points).toBe(0);
  });

  it.each([
    // required, passed, reached
    [2, 2, true],
    [2, 3, true],
    [2, 1, false],
    [0, 0, true],
  ])(
    "%i presence checks required, %i passed: reached %s",
    (presenceChecksRequired, checksPassed, reached) => {
      const outcome = dayOutcome(
        rules({ presenceChecksRequired }),
        facts({ attendedSeconds: 180 * 60, checksPassed }),
      );
      expect(outcome.reached).toBe(reached);
      expect(outcome.checksMissing).toBe(Math.max(0, presenceChecksRequired - checksPassed));
    },
  );

  it("cannot reach a day whose content has no known length", () => {
    const outcome = dayOutcome(rules(), facts({ contentSeconds: 0, attendedSeconds: 3600 }));
    expect(outcome).toMatchObject({ reached: false, points: 0, requiredMinutes: 0 });
  });
});

describe("ZHeartbeatInput", () => {
  const beat = { congressId: 1, videoUrl: "https://vimeo.com/1" };
  it("takes played ranges, and an empty beat that only starts the clock", () => {
    expect(ZHeartbeatInput.parse({ ...beat, ranges: [{ start: 0, end: 59.5 }] }).ranges).toEqual([
      { start: 0, end: 59.5 },
    ]);
    expect(ZHeartbeatInput.parse(beat)).toMatchObject({ ranges: [], live: false, liveSeconds: 0 });
  });
  it.each([
    [[{ start: 10, end: 5 }]],
    [[{ start: -1, end: 5 }]],
    [[{ start: 0, end: 24 * 3600 + 1 }]],
    [[[0, 60]]],
    [Array.from({ length: 51 }, (_, i) => ({ start: i, end: i + 1 }))],
    ["0-60"],
  ])("refuses the ranges %j with product text", (ranges) => {
    const result = ZHeartbeatInput.safeParse({ ...beat, ranges });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Die gemeldete Wiedergabe ist ungültig.");
  });
});

describe("fortbildungDayLine", () => {
  const day = {
    contentMinutes: 180,
    attendedMinutes: 37,
    requiredMinutes: 144,
    checksRequired: 0,
    checksPassed: 0,
    reached: false,
  };
  it.each([
    [day, "37 von 180 Minuten · Bescheinigung ab 144 Minuten"],
    [{ ...day, attendedMinutes: 150, reached: true }, "150 von 180 Minuten · Voraussetzung erfüllt"],
    [
      { ...day, attendedMinutes: 150, checksRequired: 2, checksPassed: 1 },
      "150 von 180 Minuten · Bescheinigung ab 144 Minuten · Anwesenheitsabfragen: 1 von 2",
    ],
    [
      { ...day, contentMinutes: 1200, attendedMinutes: 1100, requiredMinutes: 960, reached: true },
      "1.100 von 1.200 Minuten · Voraussetzung erfüllt",
    ],
    [{ ...day, contentMinutes: 0 }, "Die Länge der Videos dieses Tages steht noch nicht fest."],
  ])("%o: %s", (d, line) => {
    expect(fortbildungDayLine(d)).toBe(line);
  });
});
