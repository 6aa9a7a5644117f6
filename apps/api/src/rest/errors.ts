import { MSG } from "@app/shared";
import type { FastifyError, FastifyInstance } from "fastify";
import { toErrorResponse } from "../lib/app-error";

/** Every error of a REST path or of Fastify itself becomes `{title, detail}`; 5xx are logged, never echoed. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (typeof error.statusCode === "number" && error.statusCode < 500 && !isAppOrZod(error)) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type, ...
      const detail = error.statusCode === 413 ? MSG.payloadTooLargeDetail : MSG.defaultErrorDetail;
      const title = error.statusCode === 413 ? MSG.defaultErrorTitle : MSG.validationTitle;
      req.log.info({ err: error }, "client error");
      return reply.status(error.statusCode).send({ title, detail });
    }
    const { status, body } = toErrorResponse(error);
    if (status >= 500) {
      req.log.error({ err: error }, "request failed");
    }
    return reply.status(status).send(body);
  });
}

function isAppOrZod(error: Error): boolean {
  return error.name === "AppError" || error.name === "ZodError";
}
