/** The longest address a link may carry back into the app (the web app's search values stop there too). */
export const APP_PATH_MAX_LENGTH = 2000;

/**
 * A path of this app (with its search) that a login returns to (ADR 0081): the guarded address of
 * `/login?redirect=`, carried through a registration and its confirmation link. One leading slash,
 * never another origin (`//host`, `https:`), no backslash (browsers read it as a slash), no control character
 * (URLs drop them), at most `APP_PATH_MAX_LENGTH` long, not the login page again. Unlike an admin's link
 * (`isAppPath`, links.ts) a space may stand in its search, as the address bar shows it. The web app and the server ask this one function.
 */
export function isReturnPath(target: unknown): target is string {
  return (
    typeof target === "string" &&
    target.length <= APP_PATH_MAX_LENGTH &&
    /^\/(?![/\\])/.test(target) &&
    !/[\\\p{Cc}]/u.test(target) &&
    !/^\/login(?:[/?#]|$)/.test(target)
  );
}
