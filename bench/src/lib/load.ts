import { Pool } from "undici";

export interface EndpointStats {
  count: number;
  errors: number;
  latencies: number[];
}

/** What one virtual visitor may do: named requests, timed and counted per name. */
export interface Client {
  request(
    name: string,
    options: { method?: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; json: unknown }>;
}

export interface LoadResult {
  durationSeconds: number;
  endpoints: Map<string, EndpointStats>;
  /** completed runs of the scenario's `session` part (e.g. logins) */
  sessions: number;
  errors: number;
  firstErrors: string[];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) {
    return 0;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * A small closed-loop load driver on undici: `connections` virtual visitors, each running `visitor`
 * again and again until `durationMs` is over; every request is one HTTP/1.1 request on a pooled keep-alive
 * connection, timed from send to the end of the body. A non-2xx answer or a network error counts as an error.
 */
export async function drive(options: {
  url: string;
  connections: number;
  durationMs: number;
  visitor: (client: Client, index: number, session: () => void) => Promise<void>;
  /** ends the run before `durationMs` once true (checked before each visit), e.g. when its visitors are used up */
  done?: () => boolean;
}): Promise<LoadResult> {
  const pool = new Pool(options.url, {
    connections: options.connections,
    pipelining: 1,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const endpoints = new Map<string, EndpointStats>();
  const firstErrors: string[] = [];
  let errors = 0;
  let sessions = 0;
  const stats = (name: string) => {
    let entry = endpoints.get(name);
    if (!entry) {
      entry = { count: 0, errors: 0, latencies: [] };
      endpoints.set(name, entry);
    }
    return entry;
  };
  const fail = (entry: EndpointStats, message: string) => {
    entry.errors += 1;
    errors += 1;
    if (firstErrors.length < 5) {
      firstErrors.push(message);
    }
  };
  const client: Client = {
    async request(name, { method = "GET", path, headers = {}, body }) {
      const entry = stats(name);
      const started = performance.now();
      try {
        const res = await pool.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
        const text = await res.body.text();
        entry.latencies.push(performance.now() - started);
        entry.count += 1;
        if (res.statusCode >= 400) {
          fail(entry, `${name}: ${res.statusCode} ${text.slice(0, 200)}`);
        }
        // plain-text answers (the IPN's "OK") have no JSON to read
        const isJson = String(res.headers["content-type"] ?? "").includes("json");
        return { status: res.statusCode, json: text && isJson ? (JSON.parse(text) as unknown) : null };
      } catch (error) {
        entry.count += 1;
        fail(entry, `${name}: ${error instanceof Error ? error.message : String(error)}`);
        return { status: 0, json: null };
      }
    },
  };
  const started = performance.now();
  const until = started + options.durationMs;
  const visitors = Array.from({ length: options.connections }, async (_, index) => {
    while (performance.now() < until && !options.done?.()) {
      await options.visitor(client, index, () => {
        sessions += 1;
      });
    }
  });
  await Promise.all(visitors);
  const durationSeconds = (performance.now() - started) / 1000;
  await pool.close();
  for (const entry of endpoints.values()) {
    entry.latencies.sort((a, b) => a - b);
  }
  return { durationSeconds, endpoints, sessions, errors, firstErrors };
}

/** Requests per second and latency percentiles of one endpoint in a run. */
export function summarise(result: LoadResult, name: string) {
  const entry = result.endpoints.get(name) ?? { count: 0, errors: 0, latencies: [] };
  return {
    rps: entry.count / result.durationSeconds,
    p50: percentile(entry.latencies, 50),
    p95: percentile(entry.latencies, 95),
    p99: percentile(entry.latencies, 99),
    errors: entry.errors,
    count: entry.count,
  };
}
