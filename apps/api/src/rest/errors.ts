import { MSG } from "@app/shared";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toErrorResponse } from "../lib/app-error";

/** Fastify's own client errors (malformed JSON, body too large, wrong content type, bad URL) as `{title, detail}`. */
function sendClientError(
  error: FastifyError & { statusCode: number },
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const tooLarge = error.statusCode === 413 || error.statusCode === 414;
  const detail = tooLarge ? MSG.payloadTooLargeDetail : MSG.defaultErrorDetail;
  const title = tooLarge ? MSG.defaultErrorTitle : MSG.validationTitle;
  req.log.info({ err: error }, "client error");
  return reply.status(error.statusCode).send({ title, detail });
}

/** Every error of a REST path or of Fastify itself becomes `{title, detail}`; 5xx are logged, never echoed. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (typeof error.statusCode === "number" && error.statusCode < 500 && !isAppOrZod(error)) {
      return sendClientError(error as FastifyError & { statusCode: number }, req, reply);
    }
    const { status, body } = toErrorResponse(error);
    if (status >= 500) {
      req.log.error({ err: error }, "request failed");
    }
    return reply.status(status).send(body);
  });
}

/**
 * The router's errors before any route runs (a URL that does not decode, e.g. `%zz` or an encoded lone
 * surrogate, or a parameter over `maxParamLength`): Fastify would answer with its own body echoing the URL.
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const statusCode = typeof error.statusCode === "number" && error.statusCode < 500 ? error.statusCode : 400;
  void sendClientError(Object.assign(error, { statusCode }), req, reply);
}

function isAppOrZod(error: Error): boolean {
  return error.name === "AppError" || error.name === "ZodError";
}
