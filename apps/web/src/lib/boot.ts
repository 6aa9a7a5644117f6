/**
 * Requests public/boot.js starts before the app's script has loaded (see there). Each answer is taken
 * once; later calls ask the server themselves.
 */
export interface EarlyAnswer {
  ok: boolean;
  data: unknown;
}

declare global {
  interface Window {
    /** the session refresh (null: the network failed) */
    __sessionRestore?: Promise<EarlyAnswer | null>;
    /** on the overview: `result.data` of `congress.getOverview` as superjson sent it (null: not available) */
    __overviewPrefetch?: Promise<unknown>;
  }
}

export function takeEarly<K extends "__sessionRestore" | "__overviewPrefetch">(key: K): Window[K] {
  const value = window[key];
  window[key] = undefined;
  return value;
}
