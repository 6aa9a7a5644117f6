import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const apiRoot = resolve(import.meta.dirname, "..");
const repoRoot = resolve(apiRoot, "../..");
const bundle = resolve(apiRoot, "dist/server.mjs");

/** Sources that end up in dist/server.mjs: the API and the workspace packages it bundles. */
const SOURCES = [
  "apps/api/src",
  "apps/api/build.ts",
  "apps/api/bundle-options.ts",
  "packages/db/src",
  "packages/mail/src",
  "packages/shared/src",
];

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) {
    return stats.mtimeMs;
  }
  let newest = 0;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * Vitest global setup of the fault tests: the process tests run the production bundle, so it is built
 * once before them when missing or older than any of its sources.
 */
export default function buildBundle(): void {
  const sourcesChanged = Math.max(
    ...SOURCES.map((path) => resolve(repoRoot, path))
      .filter((path) => existsSync(path))
      .map(newestMtime),
  );
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sourcesChanged) {
    return;
  }
  execFileSync("pnpm", ["--filter", "@app/api", "build"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
