/** How long "Später" hides the two-factor notice: it returns a week later until two-factor login is on. */
export const NOTICE_PAUSE_MS = 7 * 24 * 60 * 60 * 1000;

type NoticeStorage = Pick<Storage, "getItem" | "setItem">;

/** Per admin, so a second admin on the same browser is asked for themselves. */
const keyOf = (userId: number) => `two-factor-notice-postponed:${userId}`;

/**
 * Whether the admin postponed the notice less than a week ago (`now`, epoch milliseconds). The moment is
 * kept in the browser's localStorage: a reminder, not a rule (the server enforces what it enforces either
 * way), so another browser or a cleared storage simply asks again.
 */
export function isNoticePostponed(storage: () => NoticeStorage, userId: number, now: number): boolean {
  try {
    const at = Number(storage().getItem(keyOf(userId)));
    // an unreadable value or a moment in the future (a clock set back) asks again
    return at > 0 && at <= now && now - at < NOTICE_PAUSE_MS;
  } catch {
    return false;
  }
}

export function postponeNotice(storage: () => NoticeStorage, userId: number, now: number): void {
  try {
    storage().setItem(keyOf(userId), String(now));
  } catch {
    // without storage the notice stays hidden until the page is loaded again
  }
}
