import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { Db } from "@app/db";
import { MSG } from "@app/shared";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyServerOptions, type HTTPMethods } from "fastify";
import { secretKey } from "./credentials/access-token";
import { SessionStates } from "./credentials/session-states";
import { type Env, envWarnings } from "./env";
import { registerHealth } from "./health";
import { registerKeptOverview } from "./kept-overview";
import { trustProxyOption } from "./lib/client-address";
import { privateLoggerOptions } from "./lib/log-privacy";
import { helmetOptions, securityHeaders } from "./lib/security-headers";
import type { MailDispatcher } from "./mail-delivery/outbox";
import { registerMetrics } from "./metrics/plugin";
import { registerRestRoutes } from "./rest/adapter";
import { registerDigistoreIpn } from "./rest/digistore";
import { frameworkErrors, installErrorHandlers } from "./rest/errors";
import { restRoutes } from "./rest/routes";
import { registerSecurityTxt } from "./security-txt";
import { type Clock, systemClock } from "./services/deps";
import { listenForOverviewChanges, OverviewCache } from "./services/visitor/overview-cache";
import { clearOverviewLists } from "./services/visitor/overview-lists";
import { registerWebApp } from "./static";
import { createContextFactory } from "./trpc/context";
import { trpcEndpoint } from "./trpc/endpoint";
import { appRouter } from "./trpc/router";
import { registerUploads } from "./uploads";

export interface RegisteredRoute {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** the role a path under /api declares (rest/adapter.ts) */
  role: string | undefined;
  /** the service a path reads past the procedures, when it does */
  service: string | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    /** every route of the app as registered (including the HEAD routes Fastify adds for GET) */
    routeList: readonly RegisteredRoute[];
    /** the visitors' kept overview answers (tests look at it) */
    overviewCache: OverviewCache;
    /** resolves once the overview change listener's first connection attempt is over */
    overviewCacheReady: Promise<void>;
  }
}

export interface BuildAppOptions {
  env: Env;
  db: Db;
  /** starts delivery of queued mails (pg-boss in production, see jobs/boss.ts) */
  mail: MailDispatcher;
  /** folder of the built web app; served with history fallback when it exists */
  webDistDir?: string | undefined;
  logger?: FastifyServerOptions["logger"];
  /** where the default (privacy-masking) logger writes its JSON lines instead of stdout; tests capture them */
  logStream?: { write(line: string): void };
  /** the time every service reads; only the test harness passes one (a movable clock, ADR 0099) */
  clock?: Clock;
}

const API_PATH = /^\/(api|trpc)(\/|\?|$)/;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

/** Builds the whole HTTP application without listening; tests use `inject` or `listen({ port: 0 })`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env, db } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ?? {
      // no e-mail address, token, password or name in any line (lib/log-privacy.ts)
      ...privateLoggerOptions(),
      level: env.LOG_LEVEL,
      ...(options.logStream && { stream: options.logStream }),
      // readable lines in `pnpm dev`; JSON lines everywhere else
      ...(env.NODE_ENV === "development" &&
        !options.logStream && {
          transport: {
            target: "pino-pretty",
            options: { colorize: true, singleLine: true, ignore: "pid,hostname" },
          },
        }),
    },
    // a proxy's request id is kept (and echoed) only when short and plain; anything else, e.g. 10,000
    // characters or markup meant for a log viewer, gets a UUID of ours
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors,
    // whom to believe about the client's address (ADR 0090): never a bare `true` in production
    trustProxy: trustProxyOption(env.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 5000 },
  });

  // settings that validate but are likely wrong, once per start (env.ts)
  for (const warning of envWarnings(env)) {
    app.log.warn(warning);
  }

  // Every route as registered (the hook runs for plugins registered later too), so the authorisation
  // matrix test (security/authorization-matrix.int.test.ts) enumerates the real routes, not a hand-kept list.
  const routeList: RegisteredRoute[] = [];
  app.addHook("onRoute", (route) => {
    routeList.push({
      method: route.method,
      url: route.url,
      role: route.config?.role,
      service: route.config?.service,
    });
  });
  app.decorate("routeList", routeList);

  // Node's server.close() waits for keep-alive connections that were busy when it was called until their
  // keep-alive timeout (72 s), far past the shutdown grace: answers given while closing end their connection.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // hooks that every request passes are written with `done`: an async one costs each request a promise
  app.addHook("onSend", (req, reply, payload, done) => {
    if (closing) {
      reply.header("connection", "close");
    }
    // API answers hold tokens and personal data: no browser or proxy keeps them, unless a route chose its
    // own caching; the web app's files, uploaded pictures and thumbnails live outside /api and /trpc
    if (API_PATH.test(req.url) && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    done(null, payload);
  });

  // helmet's headers depend on the configuration only: made once, set on every answer
  const security = securityHeaders(helmetOptions(env));
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("x-request-id", req.id);
    reply.headers(security);
    done();
  });
  // GET /metrics for the operators, and the request series every answer adds to (ADR 0101)
  registerMetrics(app, { token: env.METRICS_TOKEN, db, procedures: Object.keys(appRouter._def.procedures) });
  // cookies are parsed only where a session is started, renewed or ended (trpc/context.ts)
  await app.register(cookie, { hook: false });
  await app.register(formbody);
  // a form is at most 20 fields and one file; more parts than that are refused (413) before anything is read
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20, parts: 21, fieldSize: BODY_LIMIT_BYTES },
    throwFileSizeLimit: true,
  });

  installErrorHandlers(app);
  // the visitors' finished overview answers, dropped by the database's change notifications; a change of
  // everybody's (or a missed one) renews the shared event and package lists too
  const overviewCache = new OverviewCache({
    ttlMs: env.OVERVIEW_CACHE_MS,
    maxEntries: env.OVERVIEW_CACHE_ENTRIES,
    onDropAll: () => clearOverviewLists(db),
  });
  // whether an access token's session still stands, read once and kept until its account changes
  const sessionStates = new SessionStates(db, { ttlMs: env.SESSION_STATE_CACHE_MS, maxEntries: 100_000 });
  const overviewChanges = listenForOverviewChanges({
    connection: db.$client.options,
    caches: [overviewCache, sessionStates],
    log: app.log,
  });
  app.decorate("overviewCache", overviewCache);
  app.decorate("overviewCacheReady", overviewChanges.ready);
  app.addHook("onClose", () => overviewChanges.close());

  const createContext = createContextFactory({
    db,
    env,
    mail: options.mail,
    jwtKey: secretKey(env.JWT_SECRET),
    overviewCache,
    sessionStates,
    clock,
  });

  await app.register(trpcEndpoint, {
    prefix: "/trpc",
    router: appRouter,
    createContext,
    // the picture and the form's envelope (boundary, part headers)
    maxFormBytes: UPLOAD_LIMIT_BYTES + 64 * 1024,
    onError: ({ error, path, req }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") {
        req.log.error({ err: error.cause ?? error, path }, "procedure failed");
      }
    },
  });
  registerKeptOverview(app, { createContext, cache: overviewCache });
  registerRestRoutes(app, restRoutes, createContext);
  registerDigistoreIpn(app, { db, env, mail: options.mail, clock });
  registerHealth(app, db);
  registerSecurityTxt(app, env, clock);
  registerUploads(app, db);

  const webDistDir = options.webDistDir;
  const serveWeb = webDistDir !== undefined && existsSync(`${webDistDir}/index.html`);
  if (serveWeb) {
    await registerWebApp(app, webDistDir);
  } else {
    app.setNotFoundHandler((_req, reply) =>
      reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail }),
    );
  }
  return app;
}
