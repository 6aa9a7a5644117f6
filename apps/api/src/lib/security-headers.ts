import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";
import type { Env } from "../env";

/** Our security headers: a strict CSP for the web app (only the video player framed), no framing of us. */
export function helmetOptions(env: Pick<Env, "NODE_ENV">): HelmetOptions {
  return {
    hsts: env.NODE_ENV === "production",
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with style attributes
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["https://player.vimeo.com"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: env.NODE_ENV === "production" ? [] : null,
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  };
}

/**
 * The headers helmet sets with `options`, computed once by running helmet itself on a stand-in answer.
 * They depend on the configuration only (no nonces), and helmet (as @fastify/helmet runs it) builds them
 * anew for every answer, a good part of a cheap request such as a kept overview (docs/performance.md).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, answer as unknown as ServerResponse, (error?: unknown) => {
    if (error) {
      throw error;
    }
    done = true;
  });
  if (!done) {
    throw new Error("helmet did not finish synchronously; its headers cannot be computed once");
  }
  return headers;
}
