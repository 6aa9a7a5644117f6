import type { Db } from "@app/db";
import type { FastifyInstance } from "fastify";
import type { Env } from "../env";
import type { MailDispatcher } from "../mail-delivery/outbox";
import { countIpn } from "../metrics/counters";
import { handleIpn } from "../services/commerce/ipn";
import type { Clock } from "../services/deps";

/** Flattens a parsed form body to plain strings (the first value of a repeated field). */
function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === "string") {
        fields[key] = first;
      }
    }
  }
  return fields;
}

/**
 * Digistore24's instant payment notifications (form-encoded POST; answered with plain text `OK`). When an
 * organiser saves the IPN URL, Digistore24 validates it with a plain GET: answered `OK` without touching
 * data. The router ignores a trailing slash, so both spellings answer directly, never with a redirect.
 */
export function registerDigistoreIpn(
  app: FastifyInstance,
  deps: { db: Db; env: Env; mail: MailDispatcher; clock: Clock },
): void {
  // public: the signature of each notification is the check (`handleIpn`); the matrix names the service
  const config = { role: "public", service: "handleIpn" } as const;
  app.get("/api/digistore/ipn", { config }, async (_req, reply) =>
    reply.type("text/plain; charset=utf-8").send("OK"),
  );
  app.post("/api/digistore/ipn", { config }, async (req, reply) => {
    const answer = await handleIpn({ ...deps, log: req.log }, formFields(req.body)).catch(
      (error: unknown) => {
        countIpn("failed");
        throw error;
      },
    );
    return reply.status(answer.status).type("text/plain; charset=utf-8").send(answer.body);
  });
}
