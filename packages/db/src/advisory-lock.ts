import type pg from "pg";

/**
 * Runs `work` while no other process holds the advisory lock `key` (a number fixed per purpose): instances of
 * the API that start together take turns. A session lock on one connection of the pool, released after.
 */
export async function inTurn<T>(
  pool: pg.Pool,
  key: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      return await work(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [key]).catch(() => {});
    }
  } finally {
    client.release();
  }
}
