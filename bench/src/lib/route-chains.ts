import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { webRoot } from "./bundle-graph";

export interface RouteChain {
  /** the route file relative to src/routes, e.g. `_user/index.tsx` */
  file: string;
  /** the URL path, e.g. `/` or `/login/{-$congressId}/{-$showVideo}` */
  path: string;
  /** absolute route files from `__root.tsx` down to this route */
  chain: string[];
}

const routesDir = resolve(webRoot, "src/routes");

function routeFile(importPath: string): string {
  const base = resolve(webRoot, "src", importPath);
  const file = [".tsx", ".ts"].map((ext) => base + ext).find((candidate) => existsSync(candidate));
  if (!file) {
    throw new Error(`route file for ${importPath} not found`);
  }
  return file;
}

/**
 * Every route with its parent layouts, read from the generated route tree (the router's own view of the
 * nesting: a flat file like `resetPassword.$token.tsx` may have a parent, a folder like `_user/` always does).
 */
export async function readRouteChains(): Promise<RouteChain[]> {
  const source = await readFile(resolve(webRoot, "src/routeTree.gen.ts"), "utf8");
  const files = new Map<string, string>();
  for (const [, name = "", path = ""] of source.matchAll(
    /import \{ Route as (\w+) \} from '(\.\/routes\/[^']+)'/g,
  )) {
    files.set(name, routeFile(path));
  }
  const parents = new Map<string, { file: string; parent: string; path: string | undefined }>();
  const updates = /const (\w+) =\s*(\w+)\.update\(\s*\{([\s\S]*?)getParentRoute: \(\) => (\w+)/g;
  for (const [, variable = "", importName = "", body = "", parent = ""] of source.matchAll(updates)) {
    const file = files.get(importName);
    if (file) {
      parents.set(variable, { file, parent, path: /\bpath: '([^']*)'/.exec(body)?.[1] });
    }
  }
  const rootFile = files.get("rootRouteImport");
  if (!rootFile || parents.size === 0) {
    throw new Error("routeTree.gen.ts no longer has the shape this benchmark reads (imports, .update calls)");
  }
  const chainOf = (variable: string): string[] => {
    const node = parents.get(variable);
    return node ? [...chainOf(node.parent), node.file] : [rootFile];
  };
  const fullPath = (variable: string): string => {
    const node = parents.get(variable);
    return node ? `${fullPath(node.parent)}${node.path ?? ""}` : "";
  };
  // pathless layouts (`_user.tsx`, `_admin.tsx`) are never visited on their own
  return [...parents.entries()]
    .filter(([, node]) => node.path !== undefined)
    .map(([variable, node]) => ({
      file: node.file.slice(routesDir.length + 1),
      path: fullPath(variable).replace(/\/{2,}/g, "/"),
      chain: chainOf(variable),
    }))
    .sort((a, b) => a.file.localeCompare(b.file));
}
