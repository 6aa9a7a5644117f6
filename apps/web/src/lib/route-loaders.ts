import { redirect } from "@tanstack/react-router";
import { isUnauthorized } from "@/lib/alerts";

/**
 * The loader of a page the spec answers with "dialog, then the overview" when the server refuses it (event
 * content, package page, participation, purchase redirects): `load` runs; a refusal shows `dialog` and,
 * once the visitor closed it, continues on the overview. A preload (a hover) shows nothing and keeps no
 * failure: the visit itself asks again. A refused session goes on to the error page, which renews it.
 */
export async function loadOrOverview<T>(
  preload: boolean,
  load: () => Promise<T>,
  dialog: (error: unknown) => Promise<unknown>,
): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (preload) {
      return undefined;
    }
    if (isUnauthorized(error)) {
      throw error;
    }
    await dialog(error);
    throw redirect({ to: "/" });
  }
}
