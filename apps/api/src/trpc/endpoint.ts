import type { IncomingHttpHeaders } from "node:http";
import { MSG } from "@app/shared";
import type { TRPCError } from "@trpc/server";
import {
  type CreateFastifyContextOptions,
  type FastifyTRPCPluginOptions,
  fastifyTRPCPlugin,
} from "@trpc/server/adapters/fastify";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, toTRPCError } from "../lib/app-error";
import type { Context } from "./context";
import type { AppRouter } from "./router";

export interface TrpcEndpointOptions {
  router: AppRouter;
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>;
  onError: (opts: { error: TRPCError; path: string | undefined; req: FastifyRequest }) => void;
  /** the most bytes a form-data call (an image upload) may send (`refusedForm`) */
  maxFormBytes: number;
}

/** The most calls one batch may carry (the web app's link sends at most this many). */
export const MAX_BATCH_CALLS = 20;

/**
 * A batch refused before anything runs: more than `MAX_BATCH_CALLS` calls, or a call of `auth.*` together
 * with others (sign-in, registration and resets go one request each, so a batch can never multiply what one
 * request may try; the limits count per call anyway).
 */
export function refusedBatch(paths: string[]): AppError | null {
  if (paths.length > MAX_BATCH_CALLS) {
    return new AppError("BAD_REQUEST", `batch of ${paths.length} calls`, MSG.batchRefusedDetail);
  }
  if (paths.length > 1 && paths.some((path) => path.startsWith("auth."))) {
    return new AppError("BAD_REQUEST", "auth call in a batch", MSG.batchRefusedDetail);
  }
  return null;
}

const isForm = (contentType: string | undefined) =>
  contentType?.toLowerCase().split(";", 1)[0]?.trim() === "multipart/form-data";

/**
 * A form body refused before anything reads it: one that does not say its length, or says more than `max`
 * bytes. tRPC reads such a body as it streams, only when the procedure parses its input (after the role
 * checks), and sets no limit of its own; Node ends a body at its `Content-Length`.
 */
export function refusedForm(headers: IncomingHttpHeaders, max: number): AppError | null {
  if (!isForm(headers["content-type"])) {
    return null;
  }
  const length = Number(headers["content-length"] ?? Number.NaN);
  if (!Number.isSafeInteger(length)) {
    return new AppError("BAD_REQUEST", "form body without a length");
  }
  return length > max ? new AppError("PAYLOAD_TOO_LARGE", `form body of ${length} bytes`) : null;
}

/**
 * The tRPC endpoint under the prefix it is registered with: tRPC's own Fastify adapter. Before a request's
 * context is made, its batch (`refusedBatch`) and its form body (`refusedForm`) are judged; a refusal
 * answers every call of the request in tRPC's shape, with `{title, detail}` like every error.
 */
export async function trpcEndpoint(app: FastifyInstance, options: TrpcEndpointOptions) {
  const { router, createContext, onError, maxFormBytes } = options;
  const trpcOptions: FastifyTRPCPluginOptions<AppRouter>["trpcOptions"] = {
    router,
    createContext: ({ req, res, info }: CreateFastifyContextOptions) => {
      const refused =
        refusedBatch(info.calls.map((call) => call.path)) ?? refusedForm(req.headers, maxFormBytes);
      if (refused) {
        throw toTRPCError(refused);
      }
      return createContext(req, res);
    },
    onError: ({ error, path, req }) => onError({ error, path, req }),
  };
  // tRPC's adapter hands tRPC the body Fastify's parser passed on, which for a form is the request stream
  // only on a real socket; without one tRPC reads the request itself, whatever carried it (`inject` too)
  app.addHook("preHandler", (req, _reply, done) => {
    if (isForm(req.headers["content-type"])) {
      req.body = undefined;
    }
    done();
  });
  await app.register(fastifyTRPCPlugin<AppRouter>, { trpcOptions });
}
