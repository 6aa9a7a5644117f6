/**
 * `zod` for the browser (vite.config.ts aliases the bare import here). Zod probes `new Function` the
 * first time a `z.object` is built, to compile faster parsers; our Content-Security-Policy forbids eval, so
 * the probe fails anyway and the browser reports a CSP violation on every page load. `jitless` skips the
 * probe. It has to run before any schema exists (packages/shared builds them on import), which only an
 * import-time hook in front of zod itself guarantees.
 */
import { config } from "zod/v4/core";

config({ jitless: true });

export * from "zod/v4";
export { default } from "zod/v4";
