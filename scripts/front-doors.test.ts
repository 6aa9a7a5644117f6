/**
 * Libraries through their front doors (ADR 0148): no source file imports what a library marks as its own
 * (`@trpc/server/unstable-core-do-not-import`, a package's `dist/` or `src/` folders) or calls drizzle's
 * rendering and encoding internals. Every tracked TypeScript and JavaScript file of ours is read.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** what a library keeps for itself, as it shows in our source */
const INTERNALS = [
  /["']@trpc\/[a-z-]+\/unstable-core-do-not-import["']/,
  // a package's own folders (ours, `@app/…` and relative paths, are not a library's)
  /from ["'](?!\.|\/|@\/|@app\/)(?:@[a-z0-9-]+\/)?[a-z0-9.-]+\/(?:dist|src)\//,
  /\.sqlToQuery\(|\.mapToDriverValue\(/,
];

/**
 * Files allowed one for now, each with its reason. The heartbeat's statement built per call through
 * `db.execute` cost PostgreSQL 4.3 ms of CPU per heartbeat against 1.0 prepared, and an instance a third of
 * its heartbeats a second (ADR 0148): it stays prepared until it has a fixed text of its own.
 */
const ALLOWED = new Set(["apps/api/src/lib/prepared-statement.ts"]);

function sources(): { path: string; text: string }[] {
  return execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx", "*.mjs", "*.js"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((path) => path !== "" && path !== "scripts/front-doors.test.ts" && !ALLOWED.has(path))
    .map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
}

describe("front doors", () => {
  it("no source imports a library's internals", () => {
    const found = sources().flatMap(({ path, text }) =>
      text
        .split("\n")
        .flatMap((line, index) =>
          INTERNALS.some((pattern) => pattern.test(line)) ? [`${path}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it("would see one", () => {
    expect(
      INTERNALS.some((p) => p.test(`import { x } from "@trpc/server/unstable-core-do-not-import";`)),
    ).toBe(true);
    expect(INTERNALS.some((p) => p.test(`import { y } from "drizzle-orm/dist/sql";`))).toBe(true);
    expect(INTERNALS.some((p) => p.test("dialect.sqlToQuery(statement)"))).toBe(true);
    expect(INTERNALS.some((p) => p.test(`import { sql } from "drizzle-orm";`))).toBe(false);
    expect(INTERNALS.some((p) => p.test(`import { boss } from "../src/jobs/boss";`))).toBe(false);
  });
});
