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

/**
 * Route options of a page whose loader acts on a visit (signs up, confirms an address, builds a checkout
 * address, opens a dialog): no preload on hover. A visit adopts a preload that is still running (for instance
 * while the route's code arrives on a slow line), so a loader that does less on a preload would hand the
 * visit its empty answer: no sign-up, no checkout, a screen that waits for ever.
 */
export const actsOnVisit = { preload: false } as const;
