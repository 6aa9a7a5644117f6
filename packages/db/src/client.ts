import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The Drizzle database over a pg pool (`$client`: the pool, for the few hand-prepared hot statements). */
export type Db = NodePgDatabase<Schema> & { $client: pg.Pool };
/** A transaction handle; query functions accept `Db | Tx` so callers can group writes. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** pool size; default 10 */
  max?: number;
  /** called for errors of idle clients (e.g. the server restarting), which would otherwise crash the process */
  onError?: (error: Error) => void;
  /**
   * client-side limit of one query in ms: a server that stops answering (frozen, or unreachable after a
   * failover) fails the query instead of hanging the request forever. Off by default: migrations and
   * seeding may run long; the API sets it.
   */
  queryTimeoutMs?: number;
}

/** `_getActiveQuery` is internal to pg (pg-pool reads internals the same way); absent means unknown. */
type ClientInternals = { _getActiveQuery?: () => unknown };

// Return PostgreSQL `date` as the plain `YYYY-MM-DD` string instead of a Date at local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** Creates a pooled client. There is no global client: the caller owns the handle and closes it. */
export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    // One request, one core: starting parallel workers took 50 ms on our 2-core machines for aggregates
    // that run in 2 ms alone (the dashboard's order counts, docs/performance.md); our statements read index
    // ranges and pages, not whole tables, and many requests run side by side anyway.
    options: "-c max_parallel_workers_per_gather=0",
    ...(options.queryTimeoutMs !== undefined && { query_timeout: options.queryTimeoutMs }),
  });
  pool.on("error", options.onError ?? (() => {}));
  // A client given back while a query still runs on it (after a query timeout, e.g. in a transaction)
  // must not be reused: its next user would queue behind the stuck query and, once the server answers,
  // run inside the transaction whose ROLLBACK never went out. end() sets it ending (the pool then drops
  // it) and destroys the socket.
  pool.on("release", (_error, client) => {
    if ((client as unknown as ClientInternals)._getActiveQuery?.()) {
      client.end().catch(() => {});
    }
  });
  const db = drizzle({ client: pool, schema, casing: undefined });
  return {
    db,
    pool,
    close: () => pool.end(),
  };
}
