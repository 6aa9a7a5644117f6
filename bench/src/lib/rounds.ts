import { readdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { repoRoot } from "./report";

/**
 * A budget judged against a reference measured in the same run (docs/performance.md, "Budgets against the
 * floor"): our server and the reference take turns (ours, reference, ours, reference, ...), each pair gives
 * a ratio, and the budget is judged on the best pair. The host's noise only ever slows a run down, so the
 * best pair is the one least disturbed; a pair is near in time, so both sides see the same host.
 */
export interface Rounds {
  ours: number[];
  reference: number[];
  /** ours / reference per round */
  ratios: number[];
  /** the judged ratio: the lowest for a cost, the highest for a throughput */
  best: number;
  /** the ratio of the sums over all rounds (each round the same amount of work): its own costs amortised */
  overall: number;
}

export async function interleaved(
  rounds: number,
  better: "lower" | "higher",
  ours: () => Promise<number>,
  reference: () => Promise<number>,
  /**
   * Turns of each side within a round (ours, reference, ours, ...), a round's figure being the mean of its
   * turns: short turns let both sides see the same spells of the host's noise, which last longer than one
   * turn and shorter than a round.
   */
  turns = 1,
): Promise<Rounds> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let sumA = 0;
    let sumB = 0;
    for (let t = 0; t < turns; t++) {
      sumA += await ours();
      sumB += await reference();
    }
    a.push(sumA / turns);
    b.push(sumB / turns);
  }
  const ratios = a.map((value, i) => value / (b[i] ?? Number.NaN));
  const best = better === "lower" ? Math.min(...ratios) : Math.max(...ratios);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return { ours: a, reference: b, ratios, best, overall: sum(a) / sum(b) };
}

/**
 * A judged ratio of this run beside the same figure of the earlier runs of the same size kept in
 * `bench-results/` (the time-stamped copies `report` writes): how far it moves from run to run.
 */
export async function overRuns(
  name: string,
  short: boolean,
  figure: string,
  current: number,
  runs = 5,
): Promise<number[]> {
  const dir = resolve(repoRoot, "bench-results");
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((file) => file.startsWith(`${name}-`) && file.endsWith(".json"))
    .sort();
  const earlier: number[] = [];
  for (const file of files.reverse()) {
    if (earlier.length >= runs - 1) {
      break;
    }
    const result = JSON.parse(await readFile(resolve(dir, file), "utf8")) as {
      short?: boolean;
      figures?: Record<string, unknown>;
    };
    const value = result.figures?.[figure];
    if (result.short === short && typeof value === "number") {
      earlier.push(value);
    }
  }
  return [...earlier.reverse(), current];
}

/** "1.21-1.34 (n runs, spread 10.7%)": the range of a figure over runs, the spread relative to its lowest. */
export function spreadText(values: number[], digits = 2): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const spread = low > 0 ? (100 * (high - low)) / low : 0;
  return `${low.toFixed(digits)}-${high.toFixed(digits)} over ${values.length} run(s), spread ${spread.toFixed(1)}%`;
}
