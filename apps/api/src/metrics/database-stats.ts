import type { Db } from "@app/db";

/** A scrape waits this long for the database (Prometheus' own scrape timeout is 10 s by default). */
const STATS_TIMEOUT_MS = 2000;

export interface DatabaseStats {
  outboxBacklog: number;
  outboxOldestSeconds: number;
  queues: Array<{ name: string; queued: number; active: number }>;
}

/** Queued outbox mails (`mail_outbox_status_idx`) and whether pg-boss has made its schema yet. */
const OUTBOX = `SELECT count(*)::int AS backlog,
    coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest,
    to_regclass('pgboss.job') IS NOT NULL AS boss
  FROM mail_outbox WHERE status = 'queued'`;

/**
 * pg-boss' queues with the jobs waiting (created, retry) and running; `state <= 'active'` is the
 * condition of pg-boss' own fetch and size queries, so its partial indexes serve it.
 */
const QUEUES = `SELECT q.name,
    count(j.id) FILTER (WHERE j.state < 'active')::int AS queued,
    count(j.id) FILTER (WHERE j.state = 'active')::int AS active
  FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name AND j.state <= 'active'
  GROUP BY q.name ORDER BY q.name`;

async function read(db: Db): Promise<DatabaseStats> {
  const { rows } = await db.$client.query<{ backlog: number; oldest: number; boss: boolean }>(OUTBOX);
  const outbox = rows[0] ?? { backlog: 0, oldest: 0, boss: false };
  const queues = outbox.boss
    ? (await db.$client.query<{ name: string; queued: number; active: number }>(QUEUES)).rows
    : [];
  return { outboxBacklog: outbox.backlog, outboxOldestSeconds: outbox.oldest, queues };
}

/** The database's part of a scrape; rejects when the database does not answer in time. */
export function readDatabaseStats(db: Db): Promise<DatabaseStats> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("metrics: no database answer in time")), STATS_TIMEOUT_MS);
  });
  return Promise.race([read(db), timeout]).finally(() => clearTimeout(timer));
}
