/**
 * V8 flags the production bundle runs with, whoever starts it (docs/performance.md, "Memory").
 *
 * - `--max-semi-space-size=16`: since V8 13 (Node 24) the young generation of a Node build (without pointer
 *   compression) grows to two semi-spaces of 64 MiB, against 16 MiB in Node 20. Under load the API fills
 *   it, and the 96 MiB more stay resident. 16 MiB is Node 20's size.
 * - `--heap-growing-percent=100`: after a full collection V8 lets the old generation grow to up to 4 times
 *   what survived before the next one (on a machine with gigabytes). Requests in flight that a young
 *   collection finds alive move to the old generation and die there soon after, so during the overview's
 *   load it grew to 220 MiB around 60 MiB alive; twice what survived is enough.
 */
export const V8_FLAGS = ["--max-semi-space-size=16", "--heap-growing-percent=100"] as const;

/** The flag's name, with V8's `_` and `-` both meaning the same. */
const flagName = (flag: string) => flag.split("=")[0]?.replaceAll("_", "-") ?? flag;

/**
 * The flags of `V8_FLAGS` that neither the command line (`execArgv`) nor `NODE_OPTIONS` gives: a value the
 * operator chose there wins over ours.
 */
export function missingV8Flags(execArgv: readonly string[], nodeOptions = ""): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter(Boolean).map(flagName));
  return V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/**
 * Starts the bundle again in this process with the missing flags: V8 reads a heap's sizes when it
 * creates it, so they cannot be set from inside (`v8.setFlagsFromString` comes too late), and a wrapper
 * script would hold only for who starts through it. `process.execve` (Node 22.15+, 23.11+) replaces the
 * program and keeps the pid, the open files and the environment, so process managers, signals and logs
 * see one process. On older Node nothing happens (Node 20's young generation is small anyway).
 */
export function restartWithV8Flags(): void {
  const missing = missingV8Flags(process.execArgv, process.env.NODE_OPTIONS);
  const execve = (process as { execve?: Execve }).execve;
  if (missing.length === 0 || typeof execve !== "function") {
    return;
  }
  execve(
    process.execPath,
    [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}
