import { isAppPath } from "./links";

/** The longest address a link may carry back into the app (the web app's search values stop there too). */
export const APP_PATH_MAX_LENGTH = 2000;

/**
 * A path of this app (with its search) that a login returns to (ADR 0081): the guarded address of
 * `/login?redirect=`, carried through a registration and its confirmation link. A path of this app
 * (`isAppPath`: one leading slash, never another origin, no backslash, space or control character), at most
 * `APP_PATH_MAX_LENGTH` long, not the login page again. The web app and the server ask this one function.
 */
export function isReturnPath(target: unknown): target is string {
  return (
    typeof target === "string" &&
    target.length <= APP_PATH_MAX_LENGTH &&
    isAppPath(target) &&
    !/^\/login(?:[/?#]|$)/.test(target)
  );
}
