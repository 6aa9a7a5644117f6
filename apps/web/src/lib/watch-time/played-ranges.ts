/** A stretch of a recording played without a jump, in media seconds. */
export interface PlayedRange {
  start: number;
  end: number;
}

/**
 * The player's `timeupdate` comes about four times a second; a step forward of at most this many seconds
 * (times the playback rate) continues the stretch, anything else (a seek, a jump) starts a new one.
 */
const CONTINUOUS_STEP_SECONDS = 2;

/**
 * What a tab played since the last heartbeat (ADR 0104): stretches of media time from the player's
 * positions. Only positions observed while playing in a visible tab are given to it; `pause` ends the
 * stretch, and `drain` hands over what was collected, continuing a running stretch in the next heartbeat.
 * The server credits each second once, so reporting a stretch twice costs nothing.
 */
export class PlayedRanges {
  private done: PlayedRange[] = [];
  private current: PlayedRange | undefined;

  /** A position the player reported while playing at `rate`. */
  observe(seconds: number, rate = 1): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      return;
    }
    const current = this.current;
    if (
      current &&
      seconds >= current.end &&
      seconds - current.end <= CONTINUOUS_STEP_SECONDS * Math.max(1, rate)
    ) {
      current.end = seconds;
      return;
    }
    this.pause();
    this.current = { start: seconds, end: seconds };
  }

  /** Playback stopped (pause, seek, end, a hidden tab): the next position starts a new stretch. */
  pause(): void {
    if (this.current && this.current.end > this.current.start) {
      this.done.push(this.current);
    }
    this.current = undefined;
  }

  /** The stretches played since the previous call; a running one continues from where it is now. */
  drain(): PlayedRange[] {
    const running = this.current;
    this.pause();
    if (running) {
      this.current = { start: running.end, end: running.end };
    }
    const drained = this.done;
    this.done = [];
    return drained;
  }
}

/** For a live stream: the wall-clock seconds it played in a visible tab since the last heartbeat. */
export class LivePlaying {
  private since: number | undefined;
  private collected = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  play(): void {
    this.since ??= this.now();
  }

  pause(): void {
    if (this.since !== undefined) {
      this.collected += (this.now() - this.since) / 1000;
      this.since = undefined;
    }
  }

  drain(): number {
    const playing = this.since !== undefined;
    this.pause();
    if (playing) {
      this.play();
    }
    const seconds = this.collected;
    this.collected = 0;
    return seconds;
  }
}
