import type { Env } from "../env";

/**
 * The attributes of every cookie the API sets (the refresh token, the known-device mark): for the API's own
 * paths only, out of reach of scripts and of requests other sites start. `Secure` in production and behind
 * HTTPS; Chromium takes it on http://127.0.0.1 too, where the end-to-end tests run the production bundle.
 */
export function cookieAttributes(env: Pick<Env, "NODE_ENV" | "APP_URL">) {
  const secure = env.NODE_ENV === "production" || env.APP_URL.startsWith("https:");
  return { httpOnly: true, secure, sameSite: "strict", path: "/" } as const;
}

export type CookieAttributes = ReturnType<typeof cookieAttributes>;
