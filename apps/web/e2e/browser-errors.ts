import { type BrowserContext, test as base, expect, type Response } from "@playwright/test";

/**
 * The browser's counterpart of the Vitest console guard: a test fails after it ends when any page of any of
 * its browser contexts (the `page` fixture's and those from `browser.newContext()`) threw an uncaught error
 * (`pageerror`) or logged a console message of type error that the test did not declare with
 * `browserErrors.expect`. That includes Chromium's own "Failed to load resource: the server responded with a
 * status of 401" for a request the test makes fail on purpose: the test that causes it declares it.
 *
 * Two rules are built in (ADR 0070). One is the session probe of a browser without a session:
 * every page load asks POST /api/auth/token/refresh (public/boot.js); without a refresh cookie the answer is
 * 401 and Chromium logs it. Exactly those 401s, for requests that carried no refresh cookie, are not counted.
 * The other is Playwright's own: it runs its scripts in every frame, and in a sandboxed frame without
 * `allow-scripts` (the mail template preview) Chromium refuses them with "Blocked script execution in
 * 'about:srcdoc' …", now and then, depending on timing (microsoft/playwright#33343). Our pages put no script
 * into such a frame (the preview's HTML is the rendered mail), so that message is the harness's, not theirs.
 */
export interface BrowserErrors {
  /**
   * Declares an error this test causes on purpose. `pattern` is matched against the message followed by the
   * URL it came from (for "Failed to load resource" the URL of the request), e.g. `/401.*auth\/login/`. Matching
   * errors are allowed; the test fails if none comes, so a declaration cannot outlive its cause.
   */
  expect(pattern: RegExp | string): void;
  /**
   * Allows errors matching `pattern` without requiring one: only for what other tests running in parallel
   * may cause in this one, e.g. the preload of another test's event that was removed while this test tabbed
   * past its card (a focused link preloads its page). Errors this test causes itself are `expect`ed.
   */
  allow(pattern: RegExp | string): void;
}

interface Seen {
  kind: "pageerror" | "console.error";
  text: string;
}

/** How long teardown waits for a declared error that has not come yet (console events arrive asynchronously). */
const DECLARED_GRACE_MS = 5_000;
const REFRESH_PATH = "/api/auth/token/refresh";
const PROBE_LOG =
  /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \S+\/api\/auth\/token\/refresh$/;
const PLAYWRIGHT_IN_SANDBOX =
  /^Blocked script execution in 'about:(?:srcdoc|blank)' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\./;

/** A 401 of the session probe that carried no refresh cookie: a visitor without a session, not an error. */
async function isProbeWithoutSession(response: Response): Promise<boolean> {
  if (response.status() !== 401 || new URL(response.url()).pathname !== REFRESH_PATH) {
    return false;
  }
  const { cookie = "" } = await response.request().allHeaders();
  return !/(?:^|;\s*)refresh_token=/.test(cookie);
}

/**
 * The console error Chromium logs for a request answered with `status`, for `browserErrors.expect`:
 * `failedRequest(401, "/trpc/auth.login")`. A procedure also matches inside a batch of several
 * (`/trpc/account.getProfile,account.listConsents?batch=1`), as a route's loader sends its queries together.
 */
export function failedRequest(status: number, path: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const procedure = /^\/trpc\/([^/?#,]+)$/.exec(path)?.[1];
  const where = procedure
    ? `\\/trpc\\/(?:[^/?#,\\s]+,)*${literal(procedure)}(?:,[^/?#\\s]+)*`
    : literal(path);
  return new RegExp(
    `^Failed to load resource: the server responded with a status of ${status} \\(.*\\) \\S+?${where}(?:[?#]\\S*)?$`,
  );
}

const covers = (pattern: RegExp | string, text: string) =>
  typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);

export const test = base.extend<{ browserErrors: BrowserErrors }>({
  browserErrors: [
    // depends on `context`, so it is torn down while the test's own context is still open
    async ({ browser, context }, use) => {
      const seen: Seen[] = [];
      const declared: Array<RegExp | string> = [];
      const allowed: Array<RegExp | string> = [];
      const probes: Array<Promise<boolean>> = [];
      const watched = new WeakSet<BrowserContext>();
      const watch = (watchedContext: BrowserContext) => {
        if (watched.has(watchedContext)) {
          return;
        }
        watched.add(watchedContext);
        watchedContext.on("weberror", (error) => {
          const cause = error.error();
          seen.push({
            kind: "pageerror",
            text: `${cause.stack ?? cause.message} ${error.page()?.url() ?? ""}`,
          });
        });
        watchedContext.on("console", (message) => {
          if (message.type() === "error") {
            seen.push({ kind: "console.error", text: `${message.text()} ${message.location().url}` });
          }
        });
        watchedContext.on("response", (response) => {
          if (new URL(response.url()).pathname === REFRESH_PATH) {
            probes.push(isProbeWithoutSession(response).catch(() => false));
          }
        });
      };
      watch(context);
      browser.on("context", watch);
      try {
        await use({
          expect: (pattern) => declared.push(pattern),
          allow: (pattern) => allowed.push(pattern),
        });
      } finally {
        browser.off("context", watch);
      }

      const unmet = () => declared.filter((d) => !seen.some((s) => covers(d, s.text))).map((d) => String(d));
      if (unmet().length > 0) {
        await expect
          .poll(unmet, { timeout: DECLARED_GRACE_MS })
          .toEqual([])
          .catch(() => undefined);
      }
      let withoutSession = (await Promise.all(probes)).filter(Boolean).length;
      const unexpected = seen.filter((s) => {
        if ([...declared, ...allowed].some((d) => covers(d, s.text))) {
          return false;
        }
        if (s.kind === "console.error" && PLAYWRIGHT_IN_SANDBOX.test(s.text)) {
          return false;
        }
        if (s.kind === "console.error" && withoutSession > 0 && PROBE_LOG.test(s.text)) {
          withoutSession--;
          return false;
        }
        return true;
      });
      const problems = [
        ...unexpected.map((s) => `${s.kind}: ${s.text}`),
        ...unmet().map((pattern) => `browserErrors.expect(${pattern}) was declared, but no such error came`),
      ];
      if (problems.length > 0) {
        throw new Error(
          `The browser error guard (e2e/browser-errors.ts) found errors the test did not declare:\n${problems
            .map((p) => `  - ${p}`)
            .join("\n")}`,
        );
      }
    },
    { auto: true },
  ],
});
