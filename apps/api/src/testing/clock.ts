import type { Clock } from "../services/deps";

/**
 * The test application's clock (ADR 0099): the system time until a test sets or moves it, so a
 * time-dependent rule is tested by moving the clock instead of the data. Only the harness builds one;
 * production runs on `systemClock`.
 */
export class TestClock implements Clock {
  private fixedMs: number | null = null;
  private offsetMs = 0;

  now(): Date {
    return new Date(this.fixedMs ?? Date.now() + this.offsetMs);
  }

  /** stands still at `at` until moved or reset */
  set(at: Date | string): void {
    const ms = new Date(at).getTime();
    if (Number.isNaN(ms)) {
      throw new Error(`not a time: ${String(at)}`);
    }
    this.fixedMs = ms;
  }

  /** moves the clock on by `ms` (a standing clock keeps standing, a running one keeps running) */
  advance(ms: number): void {
    if (this.fixedMs === null) {
      this.offsetMs += ms;
    } else {
      this.fixedMs += ms;
    }
  }

  /** back to the system time */
  reset(): void {
    this.fixedMs = null;
    this.offsetMs = 0;
  }
}
