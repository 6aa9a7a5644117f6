import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The API reads the time only through its clock (`deps.clock`, ADR 0099), so a test moves the clock instead of
 * the data: the services, the access tokens' expiry, the rate limits' windows and the mail worker alike. This walks every
 * source file of the API and names each direct read of the time. Not walked: tests, the test harness
 * (`testing/`), the fakes of outside systems (`simulator/`) and the system clock itself (`services/deps.ts`).
 */
const sourceDir = import.meta.dirname;
const NOT_WALKED = /^(testing|simulator)\/|^services\/deps\.ts$|\.test\.ts$/;

const DIRECT_READS: Array<[RegExp, string]> = [
  [/\bnew Date\(\s*\)/, "new Date()"],
  [/\bDate\.now\(/, "Date.now()"],
  [/\bberlinDate\(\s*\)/, "berlinDate() without the clock's time"],
  [/\b(current_date|current_timestamp|localtimestamp|clock_timestamp|statement_timestamp)\b/i, "SQL time"],
  [/(?<![.\w])now\(\)/, "SQL now()"],
];

/**
 * The database's own time stays for housekeeping of rows by their own age (ADR 0099): deleting expired
 * or old rows, the orphaned-picture sweep with the stamp it compares, the outbox sweep, and the age of the
 * oldest queued row in the operators' metrics.
 */
const DATABASE_TIME_ALLOWED = new Set([
  "services/privacy/retention.ts",
  "services/admin/images.ts",
  "jobs/boss.ts",
  "metrics/database-stats.ts",
]);

function directReads(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*\*/.test(code)) {
      return;
    }
    for (const [pattern, name] of DIRECT_READS) {
      const allowed = name.startsWith("SQL now") && DATABASE_TIME_ALLOWED.has(file);
      // `clock.now()` and `performance.now()` (a cache's age, not the time of day) are no direct reads
      const stripped = code.replace(/\b(clock|performance)\.now\(\)/g, "TIME");
      if (!allowed && pattern.test(stripped)) {
        found.push(`${file}:${index + 1}: ${name}: ${line.trim()}`);
      }
    }
  });
  return found;
}

describe("time in the API", () => {
  it("is read through the clock only", () => {
    const files = readdirSync(sourceDir, { recursive: true, encoding: "utf8" })
      .map((f) => f.replaceAll("\\", "/"))
      .filter((f) => f.endsWith(".ts") && !NOT_WALKED.test(f));
    expect(files).toEqual(expect.arrayContaining(["credentials/access-token.ts", "lib/rate-limit.ts"]));
    expect(files.length).toBeGreaterThan(100);
    const reads = files.flatMap((f) => directReads(f, readFileSync(join(sourceDir, f), "utf8")));
    expect(reads).toEqual([]);
  });

  it("names each kind of direct read", () => {
    const sample = [
      "const a = new Date();",
      "const b = Date.now() + 1;",
      "const c = berlinDate();",
      "sql`expires_at > now()`",
      "sql`day = current_date`",
      "// new Date() in a comment",
      "const ok = berlinDate(ctx.clock.now()) + performance.now() + new Date(ms);",
    ].join("\n");
    expect(directReads("x.ts", sample).map((r) => r.split(": ")[1])).toEqual([
      "new Date()",
      "Date.now()",
      "berlinDate() without the clock's time",
      "SQL now()",
      "SQL time",
    ]);
  });
});
