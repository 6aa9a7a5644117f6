import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Services read the time only through `deps.clock` (ADR 0099), so a test moves the clock instead of the
 * data. This walks every service file and names each direct read of the time.
 */
const servicesDir = import.meta.dirname;

const DIRECT_READS: Array<[RegExp, string]> = [
  [/\bnew Date\(\s*\)/, "new Date()"],
  [/\bDate\.now\(/, "Date.now()"],
  [/\bberlinDate\(\s*\)/, "berlinDate() without the clock's time"],
  [/\b(current_date|current_timestamp|localtimestamp|clock_timestamp|statement_timestamp)\b/i, "SQL time"],
  [/(?<![.\w])now\(\)/, "SQL now()"],
];

/**
 * The database's own time stays for housekeeping of rows by their own age (ADR 0099): deleting expired
 * or old rows, and the orphaned-picture sweep with the stamp it compares.
 */
const DATABASE_TIME_ALLOWED = new Set(["privacy/retention.ts", "admin/images.ts"]);

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

describe("time in services", () => {
  it("is read through the clock only", () => {
    const files = readdirSync(servicesDir, { recursive: true, encoding: "utf8" })
      .map((f) => f.replaceAll("\\", "/"))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "deps.ts");
    expect(files.length).toBeGreaterThan(30);
    const reads = files.flatMap((f) => directReads(f, readFileSync(join(servicesDir, f), "utf8")));
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
