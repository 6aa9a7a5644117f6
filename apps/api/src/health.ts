import type { Db } from "@app/db";
import { MSG } from "@app/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";

const READY_TIMEOUT_MS = 2000;

/** `/healthz`: the process answers. `/readyz`: the database answers too (load balancers route on this). */
export function registerHealth(app: FastifyInstance, db: Db): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (req, reply) => {
    try {
      await Promise.race([
        db.execute(sql`SELECT 1`),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error("database timeout")), READY_TIMEOUT_MS).unref(),
        ),
      ]);
      return { status: "ok" };
    } catch (error) {
      req.log.warn({ err: error }, "database not reachable");
      return reply
        .status(503)
        .send({ title: MSG.defaultErrorTitle, detail: "Die Datenbank ist derzeit nicht erreichbar." });
    }
  });
}
