import type { PresenceCheckAsked } from "@app/shared";
import { useSyncExternalStore } from "react";

/**
 * The presence check a heartbeat's answer asked (decision 109), shared by every player of the page: the
 * server answers an open check again with each heartbeat until it is answered or its 120 s are over, so
 * a check already shown (or answered here) is not offered twice; a later one takes its place.
 */
const listeners = new Set<() => void>();
let current: PresenceCheckAsked | null = null;
const seen = new Set<string>();

const keyOf = (check: PresenceCheckAsked) => `${check.congressId}/${check.day}/${check.seq}`;

export const presenceChecks = {
  offer(check: PresenceCheckAsked): void {
    const key = keyOf(check);
    if (seen.has(key)) {
      return;
    }
    seen.add(key);
    current = check;
    for (const listener of listeners) {
      listener();
    }
  },
  /** the prompt was closed (after its answer) */
  dismiss(check: PresenceCheckAsked): void {
    if (current && keyOf(current) === keyOf(check)) {
      current = null;
      for (const listener of listeners) {
        listener();
      }
    }
  },
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
