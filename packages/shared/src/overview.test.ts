import { describe, expect, it } from "vitest";
import { chooseOverviewCongresses } from "./overview";

const today = "2026-11-27";
let nextId = 0;
const at = (firstDay: string) => ({ id: ++nextId, firstDay });

describe("chooseOverviewCongresses", () => {
  it("keeps running events and the visitor's own when more coming ones exist than fit", () => {
    const running = at("2026-11-26");
    const mine = at("2027-03-01");
    const coming = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05", "2026-12-06"].map(
      at,
    );
    const shown = chooseOverviewCongresses([running, mine, ...coming], today, (id) => id === mine.id);
    // running, own, then the four coming soonest; the running one above the coming ones, each newest
    // (latest first day) first
    expect(shown.map((c) => c.firstDay)).toEqual([
      "2026-11-26",
      "2027-03-01",
      "2026-12-04",
      "2026-12-03",
      "2026-12-02",
      "2026-12-01",
    ]);
  });

  it("counts an event starting today as running, and puts the visitor's running ones first", () => {
    const runs = Array.from({ length: 7 }, () => at(today));
    const own = at("2026-11-01");
    const shown = chooseOverviewCongresses([own, ...runs, at("2026-11-28")], today, (id) => id === own.id);
    expect(shown).toHaveLength(6);
    expect(shown).toContain(own);
    expect(shown.every((c) => c.firstDay <= today)).toBe(true);
    // the later created first among those of one day
    expect(shown.slice(0, 5).map((c) => c.id)).toEqual(
      runs
        .map((c) => c.id)
        .reverse()
        .slice(0, 5),
    );
  });

  it("shows the running events above the coming ones, the visitor's own among them, each group newest first", () => {
    const started = at("2026-11-20");
    const startsToday = at(today);
    const ownRunning = at("2026-11-25");
    const soon = at("2026-11-28");
    const later = at("2026-12-24");
    const shown = chooseOverviewCongresses(
      [soon, started, later, startsToday, ownRunning],
      today,
      (id) => id === ownRunning.id || id === later.id,
    );
    expect(shown).toEqual([startsToday, ownRunning, started, later, soon]);
  });

  it("shows fewer than the maximum when fewer exist", () => {
    expect(chooseOverviewCongresses([], today, () => false)).toEqual([]);
    const one = at("2026-12-24");
    expect(chooseOverviewCongresses([one], today, () => false)).toEqual([one]);
  });
});
