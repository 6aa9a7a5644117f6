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

function sources(): { path: string; text: string }[] {
  return execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx", "*.mjs", "*.js"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((path) => path !== "" && path !== "scripts/front-doors.test.ts")
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
