import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";

/** OWASP's argon2id parameters (m = 19 MiB, t = 2, p = 1). */
const PARAMS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * How many hashes run at once: one per core. Each holds 19 MiB while it runs (allocated and freed per
 * call), and they run on libuv's pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), so on a
 * machine with fewer cores than pool threads more hashes at once add 19 MiB each to the peak memory and
 * no throughput (they share the cores), and they hold pool threads that file reads also wait for. The
 * others wait in line, first come first served, as they would in libuv's queue (docs/performance.md,
 * "Memory").
 */
export const HASHES_AT_ONCE = availableParallelism();

let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) {
    await new Promise<void>((start) => waiting.push(start));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) {
      next(); // the slot passes on: `running` stays as it is
    } else {
      running -= 1;
    }
  }
}

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, PARAMS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inTurn(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
