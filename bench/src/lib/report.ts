import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { resolve } from "node:path";

/** Repository root; results go to its git-ignored `bench-results/`. */
export const repoRoot = resolve(import.meta.dirname, "../../..");

export interface Budget {
  name: string;
  ok: boolean;
  /** the measured figure against the limit, in words */
  detail: string;
  /** extra evidence when the budget breaks (e.g. an EXPLAIN plan) */
  evidence?: string;
}

export type Row = Record<string, string | number>;

export interface BenchResult {
  name: "rush" | "scale" | "web" | "capacity";
  short: boolean;
  tables: { title: string; rows: Row[] }[];
  budgets: Budget[];
  /** any further figures worth keeping for comparisons */
  figures?: Record<string, unknown>;
}

/** `BENCH_SHORT=1` (and `pnpm bench:ci`) runs smaller versions of every benchmark. */
export const isShort = () => process.env.BENCH_SHORT === "1";

export const machine = () => ({
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
});

const cellText = (value: string | number) =>
  typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(1)) : value;

/** Prints rows as an aligned text table. */
export function printTable(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) {
    console.log("  (keine Daten)");
    return;
  }
  const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => headers.map((h) => cellText(row[h] ?? "")));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (values: string[]) =>
    `  ${values.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ")}`;
  console.log(line(headers));
  console.log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of cells) {
    console.log(line(row));
  }
}

export function printBudgets(budgets: Budget[]): void {
  console.log("\nBudgets");
  for (const b of budgets) {
    console.log(`  ${b.ok ? "ok  " : "FAIL"}  ${b.name}: ${b.detail}`);
    if (!b.ok && b.evidence) {
      console.log(b.evidence.replace(/^/gm, "        "));
    }
  }
}

/** Prints the result and writes `bench-results/<name>.json` (latest) plus a time-stamped copy. */
export async function report(result: BenchResult): Promise<void> {
  for (const table of result.tables) {
    printTable(table.title, table.rows);
  }
  printBudgets(result.budgets);
  const dir = resolve(repoRoot, "bench-results");
  await mkdir(dir, { recursive: true });
  const body = `${JSON.stringify({ ...result, machine: machine(), at: new Date().toISOString() }, null, 2)}\n`;
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  await writeFile(resolve(dir, `${result.name}.json`), body);
  await writeFile(resolve(dir, `${result.name}-${stamp}.json`), body);
  console.log(`\n  -> bench-results/${result.name}.json`);
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
