import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time per thread and per process, read from Linux's `/proc/<pid>/task/<tid>/schedstat` (nanoseconds on
 * the CPU, unlike the 10 ms ticks of `stat`). A CPU-time figure does not depend on what else the machine is
 * doing, which a throughput ratio on two shared cores does (docs/performance.md, "Login budget").
 */

/** Nanoseconds each thread of `pid` has run, keyed `<tid>`, with the thread's name (`comm`). */
export type ThreadTimes = Map<number, { name: string; ns: number }>;

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null; // the thread or process ended between listing and reading
  }
};

const runNs = (schedstat: string | null): number => Number(schedstat?.split(" ")[0] ?? 0);

export function threadTimes(pid: number): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const name = read(`/proc/${pid}/task/${tid}/comm`)?.trim();
    const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
    if (name !== undefined && schedstat !== null) {
      times.set(Number(tid), { name, ns: runNs(schedstat) });
    }
  }
  return times;
}

/**
 * Milliseconds of CPU per thread group between two readings, grouped by thread name (Node 22+ names its
 * threads: `MainThread`, `V8Worker` (garbage collection and compilation helpers), `libuv-worker` (the pool
 * that runs argon2), ...). Threads started in between count from zero.
 */
export function cpuByThreadName(before: ThreadTimes, after: ThreadTimes): Map<string, number> {
  const byName = new Map<string, number>();
  for (const [tid, { name, ns }] of after) {
    const delta = ns - (before.get(tid)?.ns ?? 0);
    byName.set(name, (byName.get(name) ?? 0) + delta / 1e6);
  }
  return byName;
}

/** The libuv thread pool's name in Node 22+ (Node 20 leaves every thread named `node`). */
export const POOL_THREAD = "libuv-worker";

/** True when the process names its threads, so that the pool's share can be told apart. */
export function namesThreads(times: ThreadTimes): boolean {
  return [...times.values()].some(({ name }) => name === POOL_THREAD);
}

/** The pid and CPU nanoseconds of every child of `parent` (a PostgreSQL server's backends and workers). */
export function childProcessTimes(parent: number): Map<number, number> {
  const times = new Map<number, number>([[parent, runNs(read(`/proc/${parent}/schedstat`))]]);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    const stat = read(`/proc/${entry}/stat`);
    // the fields after the name in parentheses: state, ppid, ...
    const ppid = Number(stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === parent) {
      times.set(Number(entry), runNs(read(`/proc/${entry}/schedstat`)));
    }
  }
  return times;
}

/** Milliseconds of CPU of a process family between two readings (processes started in between from zero). */
export function familyCpuMs(before: Map<number, number>, after: Map<number, number>): number {
  let ns = 0;
  for (const [pid, value] of after) {
    ns += value - (before.get(pid) ?? 0);
  }
  return ns / 1e6;
}

/**
 * Memory of a process family in MiB as the proportional set size (`Pss` of `smaps_rollup`): memory shared
 * by several processes (PostgreSQL's shared buffers) counts once in all, not once per process.
 */
export function familyPssMiB(pids: Iterable<number>): number {
  let kib = 0;
  for (const pid of pids) {
    kib += Number(/^Pss:\s+(\d+) kB/m.exec(read(`/proc/${pid}/smaps_rollup`) ?? "")?.[1] ?? 0);
  }
  return kib / 1024;
}

/** The peak resident memory of a process since it started (`VmHWM`), in MiB. */
export function peakRssMiB(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? "")?.[1] ?? 0) / 1024;
}

/** CPU in ms of a whole process (every thread) and of PostgreSQL (all its processes) while `run` runs. */
export async function cpuDuring<T>(
  pid: number,
  postmaster: number,
  run: () => Promise<T>,
): Promise<{ result: T; ms: number; postgresMs: number }> {
  const before = threadTimes(pid);
  const pg = childProcessTimes(postmaster);
  const result = await run();
  const byName = cpuByThreadName(before, threadTimes(pid));
  const ms = [...byName.values()].reduce((sum, value) => sum + value, 0);
  return { result, ms, postgresMs: familyCpuMs(pg, childProcessTimes(postmaster)) };
}
