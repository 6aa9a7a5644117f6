import { berlinDate, MSG } from "@app/shared";
import type { AnyTRPCRouter } from "@trpc/server";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";
import {
  type AnyProcedure,
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  resolveResponse,
  type TRPCError,
  type TRPCResponse,
  transformTRPCResponse,
} from "@trpc/server/unstable-core-do-not-import";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, toTRPCError } from "../lib/app-error";
import type { OverviewCache } from "../services/visitor/overview-cache";
import type { Context, ContextOptions } from "./context";

export interface TrpcHttpOptions {
  router: AnyTRPCRouter;
  createContext: (req: FastifyRequest, reply: FastifyReply, options?: ContextOptions) => Promise<Context>;
  onError: (opts: { error: TRPCError; path: string | undefined; req: FastifyRequest }) => void;
  /**
   * The most bytes a form-data call (an image upload) may send. tRPC reads such a body only when the
   * procedure parses its input, i.e. after the role checks, and stops reading past this (413).
   */
  maxFormBytes: number;
  /** the visitor's overview query, answered from the kept serialised answer when there is one */
  overview?: {
    path: string;
    cache: OverviewCache;
    /** the procedure's data exactly as the router's transformer serialises it, only faster */
    serialise: (data: unknown) => string;
  };
}

interface DirectCall {
  path: string;
  procedure: AnyProcedure;
  input: unknown;
}

interface DirectCalls {
  batch: boolean;
  type: "query" | "mutation";
  calls: DirectCall[];
}

/** A JSON body as tRPC's JSON content handler tells it (`application/json`, with or without parameters). */
const isJson = (contentType: string | undefined) =>
  contentType?.toLowerCase().split(";", 1)[0]?.trim() === "application/json";

/** A successful answer whose data is already serialised (a kept overview), or any other answer. */
type Answer = TRPCResponse | { serialisedData: string };

/**
 * The @trpc/server version this endpoint was last checked against. It calls procedures itself, reads the
 * router's private `_def` and uses `unstable-core-do-not-import`, none of which tRPC keeps stable between
 * releases; http.test.ts fails on any other installed version until http.int.test.ts has been run and
 * its cases checked against the new version's behaviour.
 */
export const TRPC_CHECKED_VERSION = "11.22.1";

/** The most calls one batch may carry (the web app's link sends at most this many). */
export const MAX_BATCH_CALLS = 20;

/**
 * A batch this endpoint refuses before anything runs: more than `MAX_BATCH_CALLS` calls, or a call of
 * `auth.*` together with others (sign-in, registration and resets go one request each, so a batch can
 * never multiply what one request may try; the limits count per call anyway).
 */
function refusedBatch(req: FastifyRequest<{ Params: { path: string } }>): AppError | null {
  if ((req.query as Record<string, unknown>).batch === undefined) {
    return null;
  }
  const paths = req.params.path.split(",");
  if (paths.length > MAX_BATCH_CALLS) {
    return new AppError("BAD_REQUEST", `batch of ${paths.length} calls`, MSG.batchRefusedDetail);
  }
  if (paths.length > 1 && paths.some((path) => path.startsWith("auth."))) {
    return new AppError("BAD_REQUEST", "auth call in a batch", MSG.batchRefusedDetail);
  }
  return null;
}

/**
 * The tRPC endpoint under `/trpc`. Plain GET queries and JSON POST mutations (single or batched: the
 * bulk of the traffic, the overview refresh of every visitor and the players' heartbeats) are answered
 * here directly: the same procedures, the same wire format, but without building a WHATWG Request, its
 * body stream and an AbortSignal per call, which cost more than the overview's query itself
 * (docs/performance.md). Everything else (form data, streaming, an empty body, a method the procedure
 * does not take, malformed calls) goes to tRPC's own request handling (`resolveResponse`, as in its
 * Fastify adapter), so its error answers stay tRPC's.
 */
export async function trpcHttp(app: FastifyInstance, options: TrpcHttpOptions) {
  const { router, createContext, onError, overview, maxFormBytes } = options;
  const config = router._def._config;
  const transformer = config.transformer;

  // as fastifyTRPCPlugin: tRPC reads the raw body itself (scoped to this plugin)
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => done(null, body));
  app.removeContentTypeParser("multipart/form-data");
  app.addContentTypeParser("multipart/form-data", {}, (_req, body, done) => done(null, body));

  /**
   * The calls of a request this endpoint can answer itself, or null to leave it to tRPC: queries by GET
   * (their input in the query string) and mutations by POST with a JSON body (already read and limited
   * by Fastify), single or batched, read as tRPC reads them.
   */
  function directCalls(req: FastifyRequest<{ Params: { path: string } }>): DirectCalls | null {
    if (req.headers["trpc-accept"] !== undefined) {
      return null;
    }
    const query = req.query as Record<string, string | string[] | undefined>;
    if (Array.isArray(query.batch)) {
      return null;
    }
    let type: "query" | "mutation";
    let rawInput: string | undefined;
    if (req.method === "GET") {
      if (Array.isArray(query.input)) {
        return null;
      }
      type = "query";
      rawInput = query.input;
    } else if (
      req.method === "POST" &&
      typeof req.body === "string" &&
      req.body !== "" &&
      isJson(req.headers["content-type"])
    ) {
      type = "mutation";
      rawInput = req.body;
    } else {
      return null;
    }
    const batch = query.batch === "1";
    const paths = batch ? req.params.path.split(",") : [req.params.path];
    try {
      const inputs: unknown = rawInput ? JSON.parse(rawInput) : undefined;
      if (batch && inputs !== undefined && (typeof inputs !== "object" || inputs === null)) {
        return null;
      }
      const calls: DirectCall[] = [];
      for (const [index, path] of paths.entries()) {
        const procedure = Object.hasOwn(router._def.procedures, path)
          ? (router._def.procedures[path] as AnyProcedure)
          : undefined;
        if (procedure?._def.type !== type) {
          return null;
        }
        const raw = batch ? (inputs as Record<string, unknown> | undefined)?.[index] : inputs;
        calls.push({
          path,
          procedure,
          input: raw === undefined ? undefined : transformer.input.deserialize(raw),
        });
      }
      return { batch, type, calls };
    } catch {
      return null;
    }
  }

  app.all<{ Params: { path: string } }>("/:path", async (req, reply) => {
    const refused = refusedBatch(req);
    if (refused) {
      const error = toTRPCError(refused);
      const shapes = req.params.path.split(",").map((path) => ({
        error: getErrorShape({ config, error, type: "unknown", path, input: undefined, ctx: undefined }),
      }));
      return reply
        .status(400)
        .header("content-type", "application/json")
        .send(JSON.stringify(shapes.map((shape) => transformTRPCResponse(config, shape))));
    }
    const direct = directCalls(req);
    if (!direct) {
      // as tRPC's fastifyRequestHandler, but with a limit on what a body may stream (it sets none): JSON
      // bodies arrive as strings Fastify has already limited, form data is streamed on demand
      const raw = req.raw as typeof req.raw & { body?: string };
      if (typeof req.body === "string") {
        raw.body = req.body;
      }
      const response = await resolveResponse({
        router,
        req: incomingMessageToRequest(raw, reply.raw, { maxBodySize: maxFormBytes }),
        path: req.params.path,
        error: null,
        createContext: () => createContext(req, reply),
        onError: ({ error, path }) => onError({ error, path, req }),
      });
      return reply.send(response);
    }
    const { batch, type, calls } = direct;
    let ctx: Context | undefined;
    const asksOverview = overview !== undefined && calls.some((call) => call.path === overview.path);
    const answers: Answer[] = await createContext(req, reply, { overview: asksOverview }).then(
      async (created) => {
        ctx = created;
        try {
          return await Promise.all(
            calls.map(async (call, batchIndex): Promise<Answer> => {
              const run = () =>
                call.procedure({
                  ctx: created,
                  path: call.path,
                  type,
                  getRawInput: async () => call.input,
                  signal: undefined,
                  batchIndex,
                });
              try {
                // the overview of a visitor whose token the context verified: a kept answer stands for the
                // procedure's own checks too (a deactivated or deleted account drops it, overview-cache.ts)
                if (overview && call.path === overview.path && created.user) {
                  const userId = created.user.id;
                  const day = berlinDate(created.clock.now());
                  const serialisedData =
                    overview.cache.get(userId, day) ??
                    (await overview.cache.fill(
                      userId,
                      day,
                      async () => overview.serialise(await run()),
                      created.overviewReadAhead?.fill,
                    ));
                  return { serialisedData };
                }
                return { result: { data: await run() } };
              } catch (cause) {
                return failed(cause, call);
              }
            }),
          );
        } finally {
          // the read ahead's watch on the visitor's changes ends with the request (context.ts)
          if (created.overviewReadAhead) {
            overview?.cache.close(created.overviewReadAhead.fill);
          }
        }
      },
      (cause) => calls.map((call) => failed(cause, call)),
    );

    function failed(cause: unknown, call: DirectCall): TRPCResponse {
      const error = getTRPCErrorFromUnknown(cause);
      onError({ error, path: call.path, req });
      return {
        error: getErrorShape({ config, error, type, path: call.path, input: call.input, ctx }),
      };
    }

    // tRPC's wire format, with already serialised data spliced in as it is
    const responses = answers.map(
      (a): TRPCResponse => ("serialisedData" in a ? { result: { data: null } } : a),
    );
    const parts = answers.map((a) =>
      "serialisedData" in a
        ? `{"result":{"data":${a.serialisedData}}}`
        : JSON.stringify(transformTRPCResponse(config, a)),
    );
    if (parts.length === 0) {
      throw new Error("no call answered");
    }
    reply
      .status(getHTTPStatusCode(batch ? responses : (responses[0] as TRPCResponse)))
      .header("vary", "trpc-accept, accept")
      .header("content-type", "application/json");
    return reply.send(batch ? `[${parts.join(",")}]` : parts[0]);
  });
}
