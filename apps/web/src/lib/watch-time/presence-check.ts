import type { PresenceCheckAsked } from "@app/shared";
import { useSyncExternalStore } from "react";

/**
 * The presence check a heartbeat's answer asked (ADR 0109), shared by every player of the page: the
 * server answers an open check again with each heartbeat until it is answered or its 120 s are over, so
 * a check already shown (or answered here) is not offered twice; a later one takes its place. The store
 * also knows whether a player of the page is playing: a check may come with the heartbeat of a pause, and
 * the prompt then says nothing of a video that plays on.
 */
const listeners = new Set<() => void>();
let current: PresenceCheckAsked | null = null;
const seen = new Set<string>();
/** the players (one token each) playing now */
const playing = new Set<object>();

const keyOf = (check: PresenceCheckAsked) => `${check.congressId}/${check.day}/${check.seq}`;
const notify = () => {
  for (const listener of listeners) {
    listener();
  }
};

export const presenceChecks = {
  offer(check: PresenceCheckAsked): void {
    const key = keyOf(check);
    if (seen.has(key)) {
      return;
    }
    seen.add(key);
    current = check;
    notify();
  },
  /** the prompt was closed (after its answer) */
  dismiss(check: PresenceCheckAsked): void {
    if (current && keyOf(current) === keyOf(check)) {
      current = null;
      notify();
    }
  },
  /** a player (its token) started or stopped playing */
  setPlaying(player: object, isPlaying: boolean): void {
    if (playing.has(player) !== isPlaying) {
      if (isPlaying) {
        playing.add(player);
      } else {
        playing.delete(player);
      }
      notify();
    }
  },
  isPlaying: (): boolean => playing.size > 0,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): PresenceCheckAsked | null => current,
};

/** The check to show, or null. */
export function usePresenceCheck(): PresenceCheckAsked | null {
  return useSyncExternalStore(presenceChecks.subscribe, presenceChecks.get);
}

/** Whether a video of the page is playing (the prompt's hint says the video plays on). */
export function useVideoPlaying(): boolean {
  return useSyncExternalStore(presenceChecks.subscribe, presenceChecks.isPlaying);
}
