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
  const { title, detail } = tooLarge
    ? { title: MSG.defaultErrorTitle, detail: MSG.payloadTooLargeDetail }
    : isJsonError(error)
      ? { title: MSG.defaultErrorTitle, detail: MSG.invalidJsonDetail }
      : { title: MSG.validationTitle, detail: MSG.badRequestDetail };
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

/** A body that is no JSON (Fastify's parser throws a SyntaxError; an empty body has its own code). */
export function isJsonError(error: Error & { code?: string }): boolean {
  return (
    error.name === "SyntaxError" ||
    error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    error.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
  );
}

function isAppOrZod(error: Error): boolean {
  return error.name === "AppError" || error.name === "ZodError";
}
