import { describe, expect, it } from "vitest";
import { presenceChecks } from "./presence-check";

describe("presenceChecks: whether a video of the page plays", () => {
  it("is true while any player plays and tells the prompt only when that changes", () => {
    const first = {};
    const second = {};
    let changes = 0;
    const unsubscribe = presenceChecks.subscribe(() => {
      changes++;
    });
    try {
      expect(presenceChecks.isPlaying()).toBe(false);
      presenceChecks.setPlaying(first, true);
      presenceChecks.setPlaying(first, true);
      presenceChecks.setPlaying(second, true);
      expect(presenceChecks.isPlaying()).toBe(true);
      // one pauses, the other plays on
      presenceChecks.setPlaying(first, false);
      expect(presenceChecks.isPlaying()).toBe(true);
      presenceChecks.setPlaying(second, false);
      presenceChecks.setPlaying(second, false);
      expect(presenceChecks.isPlaying()).toBe(false);
      expect(changes).toBe(4);
    } finally {
      unsubscribe();
    }
  });
});
