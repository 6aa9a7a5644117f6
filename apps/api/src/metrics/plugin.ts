import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "@app/db";
import { MSG } from "@app/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { processRegistry } from "./counters";
import { readDatabaseStats } from "./database-stats";

export interface MetricsOptions {
  /** METRICS_TOKEN; unset = no metrics (GET /metrics answers 404) */
  token: string | undefined;
  db: Db;
  /** the tRPC procedures: `/trpc/<name>` becomes a route label only for these */
  procedures: Iterable<string>;
}

const TRPC_ROUTE = "/trpc/:path";
/** seconds; from a kept overview (about 1 ms) to a login queued behind the hashes of a rush */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processSeriesStarted = false;

/**
 * The route of a request as a label: Fastify's route pattern (`/api/congress/:id`, never the path with
 * its ids or tokens); a single tRPC procedure by its name, a batch as one label, anything unknown by the
 * pattern, and requests no route matched (the web app's history fallback among them) as `unmatched`.
 */
function routeLabel(req: FastifyRequest, procedures: ReadonlySet<string>): string {
  const route = req.routeOptions.url;
  if (route === undefined) {
    return "unmatched";
  }
  if (route !== TRPC_ROUTE) {
    return route;
  }
  const path = (req.params as { path?: string }).path ?? "";
  if (procedures.has(path)) {
    return `/trpc/${path}`;
  }
  return path.includes(",") ? "/trpc/(batch)" : TRPC_ROUTE;
}

/** Compares in constant time: both sides are hashed first, so neither length nor prefix shows. */
function bearerMatcher(token: string): (header: string | undefined) => boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  const expected = digest(token);
  return (header) => {
    const given = /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1] ?? "";
    return timingSafeEqual(digest(given), expected);
  };
}

/**
 * `GET /metrics` in Prometheus' text format for the operators (ADR 0101): off (404) unless
 * METRICS_TOKEN is set, then only with `Authorization: Bearer <METRICS_TOKEN>`. Requests by route and
 * status with their latency, the process (event-loop lag, heap, memory, CPU), the database pool, the mail
 * outbox's backlog, pg-boss' queues, and the counters of `counters.ts` (logins, payment notifications).
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const { token, db } = options;
  if (!token) {
    app.get("/metrics", (_req, reply) =>
      reply.status(404).send({ title: MSG.notFoundTitle, detail: MSG.notFoundDetail }),
    );
    return;
  }
  if (!processSeriesStarted) {
    processSeriesStarted = true;
    // the event-loop lag sampled every 100 ms, not prom-client's 10: each sample wakes an idle loop, which
    // cost the waiting API 4 ms of CPU a second (ADR 0124)
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 100 });
  }
  const procedures = new Set(options.procedures);
  const registry = new Registry();
  const requests = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP requests by method, route pattern and status, with their time to the last byte",
    labelNames: ["method", "route", "status_code"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // one child per label set, found by a string key: prom-client hashes the label object on every observe
  const children = new Map<string, ReturnType<typeof requests.labels>>();
  app.addHook("onResponse", (req, reply, done) => {
    const route = routeLabel(req, procedures);
    const key = `${req.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = requests.labels(req.method, route, String(reply.statusCode));
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const poolConnections = gauge(
    "kongress_db_pool_connections",
    "Connections of this instance's database pool by state (in_use, idle)",
    ["state"],
  );
  const poolWaiting = gauge("kongress_db_pool_waiting", "Queries waiting for a connection of the pool");
  const poolMax = gauge("kongress_db_pool_max", "Size of the database pool (DATABASE_POOL_SIZE)");
  const databaseUp = gauge(
    "kongress_metrics_database_up",
    "1 when the database answered this scrape's questions (outbox, queues), else 0",
  );
  const outboxBacklog = gauge("kongress_mail_outbox_backlog", "Mails in the outbox not yet sent (queued)");
  const outboxOldest = gauge(
    "kongress_mail_outbox_oldest_age_seconds",
    "Age of the oldest mail still queued in the outbox (0 when none)",
  );
  const queueDepth = gauge(
    "kongress_job_queue_depth",
    "pg-boss jobs by queue: waiting to run (queued: created or retry) and running (active)",
    ["queue", "state"],
  );

  const authorised = bearerMatcher(token);
  app.get("/metrics", async (req, reply: FastifyReply) => {
    reply.header("cache-control", "no-store");
    if (!authorised(req.headers.authorization)) {
      return reply
        .status(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ title: MSG.metricsTokenTitle, detail: MSG.metricsTokenDetail });
    }
    // the pool as the requests left it, before this scrape's own question takes a connection
    const pool = db.$client;
    poolConnections.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
    poolConnections.set({ state: "idle" }, pool.idleCount);
    poolWaiting.set(pool.waitingCount);
    poolMax.set(pool.options.max ?? 0);
    const stats = await readDatabaseStats(db).catch((error: unknown) => {
      req.log.warn({ err: error }, "metrics: database not answering");
      return undefined;
    });
    databaseUp.set(stats ? 1 : 0);
    outboxBacklog.reset();
    outboxOldest.reset();
    queueDepth.reset();
    if (stats) {
      outboxBacklog.set(stats.outboxBacklog);
      outboxOldest.set(stats.outboxOldestSeconds);
      for (const queue of stats.queues) {
        queueDepth.set({ queue: queue.name, state: "queued" }, queue.queued);
        queueDepth.set({ queue: queue.name, state: "active" }, queue.active);
      }
    }
    const text = (await processRegistry.metrics()) + (await registry.metrics());
    return reply.type(registry.contentType).send(text);
  });
}
