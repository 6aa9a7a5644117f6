import { describe, expect, it } from "vitest";
import { LivePlaying, PlayedRanges } from "./played-ranges";

/** Positions as the player reports them: every 0.25 s of wall time, `rate` media seconds per second. */
function play(ranges: PlayedRanges, from: number, to: number, rate = 1) {
  for (let s = from; s <= to + 1e-9; s += 0.25 * rate) {
    ranges.observe(s, rate);
  }
}

describe("PlayedRanges", () => {
  it("collects a continuous stretch and continues it in the next heartbeat", () => {
    const ranges = new PlayedRanges();
    play(ranges, 0, 60);
    expect(ranges.drain()).toEqual([{ start: 0, end: 60 }]);
    play(ranges, 60.25, 90);
    expect(ranges.drain()).toEqual([{ start: 60, end: 90 }]);
    expect(ranges.drain()).toEqual([]);
  });

  it("starts a new stretch after a seek back or forward", () => {
    const ranges = new PlayedRanges();
    play(ranges, 0, 30);
    play(ranges, 10, 20);
    play(ranges, 100, 110);
    expect(ranges.drain()).toEqual([
      { start: 0, end: 30 },
      { start: 10, end: 20 },
      { start: 100, end: 110 },
    ]);
  });

  it("follows playback at twice the speed as one stretch", () => {
    const ranges = new PlayedRanges();
    play(ranges, 0, 120, 2);
    expect(ranges.drain()).toEqual([{ start: 0, end: 120 }]);
  });

  it("ends the stretch on pause, and the next position starts a new one", () => {
    const ranges = new PlayedRanges();
    play(ranges, 0, 10);
    ranges.pause();
    play(ranges, 10.25, 20);
    expect(ranges.drain()).toEqual([
      { start: 0, end: 10 },
      { start: 10.25, end: 20 },
    ]);
  });

  it("ignores positions that are no time", () => {
    const ranges = new PlayedRanges();
    ranges.observe(Number.NaN);
    ranges.observe(-1);
    expect(ranges.drain()).toEqual([]);
  });
});

describe("LivePlaying", () => {
  it("counts the wall-clock seconds played, across heartbeats and pauses", () => {
    let now = 0;
    const live = new LivePlaying(() => now);
    live.play();
    now = 30_000;
    expect(live.drain()).toBe(30);
    now = 45_000;
    live.pause();
    now = 100_000;
    expect(live.drain()).toBe(15);
    live.play();
    live.play();
    now = 110_000;
    expect(live.drain()).toBe(10);
  });
});
