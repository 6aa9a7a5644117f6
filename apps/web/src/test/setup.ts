import "@/styles.css";
import { afterEach } from "vitest";
import { cleanup } from "vitest-browser-react";
import { alerts } from "@/lib/alerts";
import { session } from "@/lib/auth";
import { queryClient } from "@/lib/trpc";

/**
 * Setup of the component tests (ADR 0138): the app's own Tailwind styles, no server, and the app's global
 * stores (session, query cache, alerts) empty again after every test.
 */

// the app's language, as index.html declares it (the test page's own is English)
document.documentElement.lang = "de";

/** The API calls a test made: there is no server, so each is a query the test forgot to fill in. */
const apiCalls: string[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (url.origin === location.origin && /^\/(trpc|api)\//.test(url.pathname)) {
    // the path names the procedures (a batch: several, comma-separated)
    apiCalls.push(url.pathname);
    return Promise.reject(new TypeError(`no server in a component test: ${url.pathname}`));
  }
  return realFetch(input, init);
};

afterEach(async () => {
  await cleanup();
  for (const dialog of alerts.getState().dialogs) {
    alerts.answer(dialog.id, false);
  }
  for (const alert of alerts.getState().alerts) {
    alerts.dismiss(alert.id);
  }
  queryClient.clear();
  session.signOut();
  const calls = apiCalls.splice(0);
  if (calls.length > 0) {
    throw new Error(`the test called the API, which component tests do not have: ${calls.join(", ")}`);
  }
});
