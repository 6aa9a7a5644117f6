/**
 * `pnpm bench [rush] [scale] [web] [capacity]`: runs the named benchmarks one after another, prints their tables and
 * budgets, writes bench-results/*.json and exits non-zero when any budget breaks. `BENCH_SHORT=1` runs the
 * short CI versions.
 */
import { type BenchResult, report } from "./lib/report";

const benchmarks: Record<BenchResult["name"], () => Promise<BenchResult>> = {
  rush: async () => (await import("./rush")).runRush(),
  scale: async () => (await import("./scale")).runScale(),
  web: async () => (await import("./web")).runWeb(),
  capacity: async () => (await import("./capacity")).runCapacity(),
};

// `--size xl`: the nightly-sized data of `bench:scale` (docs/performance/history.md, "Growth"), not in bench:ci
const args = process.argv.slice(2);
const sizeAt = args.indexOf("--size");
if (sizeAt >= 0) {
  process.env.BENCH_SIZE = args[sizeAt + 1] ?? "";
  args.splice(sizeAt, 2);
}
const names = args as BenchResult["name"][];
const unknown = names.filter((n) => !(n in benchmarks));
if (names.length === 0 || unknown.length > 0) {
  console.error(`usage: main.ts ${Object.keys(benchmarks).join("|")} ... (unknown: ${unknown.join(", ")})`);
  process.exit(2);
}

let broken = 0;
for (const name of names) {
  console.log(`\n=== ${name} ===`);
  const result = await benchmarks[name]();
  await report(result);
  broken += result.budgets.filter((b) => !b.ok).length;
}
if (broken > 0) {
  console.error(`\n${broken} budget(s) broken`);
  process.exit(1);
}
console.log("\nall budgets hold");
