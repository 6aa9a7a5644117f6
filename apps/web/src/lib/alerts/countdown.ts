/** What holds a message open: the pointer over it, the keyboard focus on a control inside it. */
export type HoldReason = "pointer" | "focus";

export interface Countdown {
  /** the message is shown: the time starts (again a no-op) */
  start(): void;
  hold(reason: HoldReason): void;
  release(reason: HoldReason): void;
  /** the message closed otherwise: never elapse */
  cancel(): void;
}

/**
 * The time a message stays on screen (spec section 9: 5000 ms), paused while the visitor is busy with it
 * (WCAG 2.2.1, timing adjustable): it stops while any hold lasts and goes on with the time left when the
 * last one ends. It runs only once the message is shown, so a dialog waiting behind another keeps its time.
 */
export function createCountdown(durationMs: number, onElapsed: () => void): Countdown {
  let left = durationMs;
  let started = false;
  let finished = false;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const holds = new Set<HoldReason>();

  const run = () => {
    if (!started || finished || holds.size > 0 || timer !== undefined) {
      return;
    }
    since = Date.now();
    timer = setTimeout(() => {
      timer = undefined;
      finished = true;
      onElapsed();
    }, left);
  };
  const stop = () => {
    if (timer === undefined) {
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    left = Math.max(0, left - (Date.now() - since));
  };

  return {
    start() {
      started = true;
      run();
    },
    hold(reason) {
      holds.add(reason);
      stop();
    },
    release(reason) {
      holds.delete(reason);
      run();
    },
    cancel() {
      stop();
      finished = true;
    },
  };
}
