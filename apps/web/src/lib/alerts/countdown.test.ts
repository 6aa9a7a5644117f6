import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCountdown } from "./countdown";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function countdown(ms = 5000) {
  const elapsed = vi.fn();
  return { elapsed, countdown: createCountdown(ms, elapsed) };
}

describe("message countdown", () => {
  it("runs from start, not from creation, and elapses once at its time", () => {
    const { elapsed, countdown: c } = countdown();
    vi.advanceTimersByTime(10_000);
    expect(elapsed).not.toHaveBeenCalled();
    c.start();
    c.start();
    vi.advanceTimersByTime(4999);
    expect(elapsed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(elapsed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(elapsed).toHaveBeenCalledTimes(1);
  });

  it("stands still while held and goes on with the time left", () => {
    const { elapsed, countdown: c } = countdown();
    c.start();
    vi.advanceTimersByTime(2000);
    c.hold("pointer");
    vi.advanceTimersByTime(60_000);
    expect(elapsed).not.toHaveBeenCalled();
    c.release("pointer");
    vi.advanceTimersByTime(2999);
    expect(elapsed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(elapsed).toHaveBeenCalledTimes(1);
  });

  it("goes on only when the last hold ends (pointer and focus)", () => {
    const { elapsed, countdown: c } = countdown();
    c.start();
    c.hold("pointer");
    c.hold("focus");
    c.release("pointer");
    vi.advanceTimersByTime(10_000);
    expect(elapsed).not.toHaveBeenCalled();
    c.release("focus");
    vi.advanceTimersByTime(5000);
    expect(elapsed).toHaveBeenCalledTimes(1);
  });

  it("held before it is shown, it starts only when released", () => {
    const { elapsed, countdown: c } = countdown();
    c.hold("pointer");
    c.start();
    vi.advanceTimersByTime(10_000);
    expect(elapsed).not.toHaveBeenCalled();
    c.release("pointer");
    vi.advanceTimersByTime(5000);
    expect(elapsed).toHaveBeenCalledTimes(1);
  });

  it("never elapses once cancelled, also not after a release", () => {
    const { elapsed, countdown: c } = countdown();
    c.start();
    c.hold("focus");
    c.cancel();
    c.release("focus");
    vi.advanceTimersByTime(10_000);
    expect(elapsed).not.toHaveBeenCalled();
  });
});
