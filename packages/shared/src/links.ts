/**
 * The links an admin types and a page puts into an `href` (a package's cross-sell link, a video's or a
 * webinar's address): one rule for the form, the server that saves and the page that renders.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001F\u007F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL_SPACE_OR_BACKSLASH = /[\u0000-\u0020\u007F\\]/;
const APP_ORIGIN = "https://app.invalid";

/**
 * An absolute web address: `http://` or `https://` and a host. Never `javascript:`, `data:`, a word
 * or a protocol-relative `//host`. Control characters are refused: browsers drop tabs and line breaks
 * from an address, so what they open would differ from what was checked.
 */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || CONTROL.test(value) || !URL.canParse(value)) {
    return false;
  }
  return new URL(value).hostname !== "";
}

/**
 * A path of this app: one `/` and then no second `/` or `\` (`//evil.example` and `/\evil.example` are
 * another site to a browser), no backslash, space or control character anywhere (a browser drops a tab
 * inside `/\t/evil.example` and goes to evil.example).
 */
export function isAppPath(value: string): boolean {
  if (!value.startsWith("/") || /^\/[/\\]/.test(value) || CONTROL_SPACE_OR_BACKSLASH.test(value)) {
    return false;
  }
  return URL.canParse(value, APP_ORIGIN) && new URL(value, APP_ORIGIN).origin === APP_ORIGIN;
}

/**
 * A link a page may show: an absolute web address or a path of this app, without the spaces around it;
 * `null` for anything else (`javascript:`, `data:`, a bare word, `//evil.example`) and for nothing.
 */
export function linkTarget(value: string | null | undefined): string | null {
  const link = value?.trim() ?? "";
  return isWebAddress(link) || isAppPath(link) ? link : null;
}
