/**
 * The heartbeat phase of the rush (ADR 0108): during a Fortbildung congress day every
 * viewer's player sends `attendance.heartbeat` about once a minute (10,000 viewers: about 170 per second),
 * the hottest write of the day. Measured here: the API's CPU per heartbeat against its CPU per first
 * overview in the same run, taking turns (ADR 0102; information since ADR 0145), PostgreSQL's CPU and
 * write-ahead log per heartbeat, and a burst of heartbeats from 500 connections that must see no error.
 */
import type { Db } from "@app/db";
import { sql } from "drizzle-orm";
import { cpuDuring } from "./lib/cpu";
import { type Client, drive, type LoadResult, summarise } from "./lib/load";
import { interleaved, type Rounds } from "./lib/rounds";

export interface HeartbeatSetup {
  url: string;
  apiPid: number;
  postmaster: number;
  db: Db;
  congressId: number;
  /** the URLs of videos the congress shows today */
  videoUrls: string[];
  /** access tokens of participants of the congress (each a viewer) */
  viewers: string[];
  /** one round of first overviews on the API: its CPU per overview in ms */
  firstOverviewRound: () => Promise<number>;
  rounds: number;
  heartbeatsPerRound: number;
  connections: number;
  burstConnections: number;
  burstMs: number;
}

export interface HeartbeatRun {
  heartbeats: number;
  errors: number;
  apiMs: number;
  postgresMs: number;
  walBytes: number;
  result: LoadResult;
}

export interface HeartbeatPhase {
  rounds: Rounds;
  /** the run of each round, in order */
  runs: HeartbeatRun[];
  burst: HeartbeatRun;
}

/** The write-ahead log's insert position as a number of bytes. */
async function walPosition(db: Db): Promise<bigint> {
  const result = await db.execute<{ lsn: string }>(
    sql`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text AS lsn`,
  );
  return BigInt(result.rows[0]?.lsn ?? "0");
}

/**
 * Each viewer plays one video (by its index) straight through: its n-th heartbeat reports the minute
 * [60n, 60n + 60) played, as the web app reports a minute of playing. The server bounds what it credits by
 * the wall clock since the viewer's last heartbeat; its work (the one statement) is the same either way.
 */
function viewerBeats(setup: HeartbeatSetup) {
  const sent = new Array<number>(setup.viewers.length).fill(0);
  let next = 0;
  return {
    count: () => next,
    visit: async (client: Client) => {
      const viewer = next++ % setup.viewers.length;
      const minute = sent[viewer] ?? 0;
      sent[viewer] = minute + 1;
      await client.request("heartbeat", {
        method: "POST",
        path: "/trpc/attendance.heartbeat",
        headers: { "content-type": "application/json", authorization: `Bearer ${setup.viewers[viewer]}` },
        body: JSON.stringify({
          json: {
            congressId: setup.congressId,
            videoUrl: setup.videoUrls[viewer % setup.videoUrls.length],
            ranges: [{ start: minute * 60, end: minute * 60 + 60 }],
          },
        }),
      });
    },
  };
}

async function heartbeatRun(
  setup: HeartbeatSetup,
  beats: ReturnType<typeof viewerBeats>,
  options: { connections: number; count?: number; durationMs: number },
): Promise<HeartbeatRun> {
  const first = beats.count();
  const walBefore = await walPosition(setup.db);
  const run = await cpuDuring(setup.apiPid, setup.postmaster, () =>
    drive({
      url: setup.url,
      connections: options.connections,
      durationMs: options.durationMs,
      ...(options.count !== undefined && { done: () => beats.count() - first >= (options.count ?? 0) }),
      visitor: beats.visit,
    }),
  );
  const walBytes = Number((await walPosition(setup.db)) - walBefore);
  const stats = summarise(run.result, "heartbeat");
  return {
    heartbeats: stats.count - stats.errors,
    errors: stats.errors,
    apiMs: run.ms,
    postgresMs: run.postgresMs,
    walBytes,
    result: run.result,
  };
}

export const perHeartbeat = (run: HeartbeatRun, value: number) => value / Math.max(1, run.heartbeats);

/**
 * Warm-up (every viewer's first heartbeat: its token verified, its row inserted, as after the first
 * minute of a day), then rounds of heartbeats and first overviews taking turns, then the burst.
 */
export async function runHeartbeats(setup: HeartbeatSetup): Promise<HeartbeatPhase> {
  const beats = viewerBeats(setup);
  await heartbeatRun(setup, beats, {
    connections: setup.connections,
    count: setup.viewers.length,
    durationMs: 120_000,
  });
  const runs: HeartbeatRun[] = [];
  const rounds = await interleaved(
    setup.rounds,
    "lower",
    async () => {
      const run = await heartbeatRun(setup, beats, {
        connections: setup.connections,
        count: setup.heartbeatsPerRound,
        durationMs: 120_000,
      });
      runs.push(run);
      return perHeartbeat(run, run.apiMs);
    },
    setup.firstOverviewRound,
  );
  const burst = await heartbeatRun(setup, beats, {
    connections: setup.burstConnections,
    durationMs: setup.burstMs,
  });
  return { rounds, runs, burst };
}
