import { MSG } from "@app/shared";
import type { FastifyInstance } from "fastify";
import type { Env } from "./env";
import type { Clock } from "./services/deps";

/** How far ahead `Expires` lies; RFC 9116 asks for less than a year. */
const EXPIRES_AFTER_DAYS = 180;

/**
 * `/.well-known/security.txt` (RFC 9116): where to report a vulnerability, from `SECURITY_CONTACT`. Its
 * `Expires` lies 180 days after the current day (midnight UTC), so the file never goes stale while the
 * server runs and stays the same all day. Without a contact there is nothing to say: 404, never the web
 * app's index.html.
 */
export function registerSecurityTxt(app: FastifyInstance, env: Env, clock: Clock): void {
  app.get("/.well-known/security.txt", (_req, reply) => {
    if (env.SECURITY_CONTACT.length === 0) {
      return reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail });
    }
    // a copy: the day's start is set on it
    const today = new Date(clock.now());
    today.setUTCHours(0, 0, 0, 0);
    const expires = new Date(today.getTime() + EXPIRES_AFTER_DAYS * 24 * 60 * 60 * 1000);
    const lines = [
      ...env.SECURITY_CONTACT.map((contact) => `Contact: ${contact}`),
      `Expires: ${expires.toISOString().replace(".000Z", "Z")}`,
      "Preferred-Languages: de, en",
      `Canonical: ${env.APP_URL.replace(/\/$/, "")}/.well-known/security.txt`,
    ];
    return reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(`${lines.join("\n")}\n`);
  });
}
