import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { build, type Plugin } from "vite";
import { repoRoot } from "./report";

export const webRoot = resolve(repoRoot, "apps/web");

export interface ChunkNode {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  /** module ids with their minified size in this chunk */
  modules: { id: string; bytes: number }[];
  css: string[];
}

export interface BundleGraph {
  outDir: string;
  chunks: Map<string, ChunkNode>;
  /** what index.html itself loads: module scripts (and their preloads) and style sheets */
  html: { scripts: string[]; styles: string[] };
}

/** Asset file names (`assets/x.js`) index.html references with the given tag/attribute pattern. */
function referenced(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => (match[1] ?? "").replace(/^\//, ""));
}

/** Records the chunk graph as written (after Vite dropped chunks that only carried CSS). */
function recordBundle(graph: BundleGraph): Plugin {
  return {
    name: "bench-record-bundle",
    apply: "build",
    writeBundle(_, bundle) {
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type === "asset") {
          continue;
        }
        graph.chunks.set(fileName, {
          fileName,
          isEntry: item.isEntry,
          isDynamicEntry: item.isDynamicEntry,
          facadeModuleId: item.facadeModuleId,
          imports: [...item.imports],
          dynamicImports: [...item.dynamicImports],
          modules: Object.entries(item.modules).map(([id, info]) => ({ id, bytes: info.renderedLength })),
          css: [...(item.viteMetadata?.importedCss ?? [])],
        });
      }
    },
  };
}

/**
 * A production build of the web app with its own Vite config into the git-ignored `.data/`, so the
 * figures describe exactly what `pnpm build` ships, without touching `apps/web/dist`.
 */
export async function buildWebApp(): Promise<BundleGraph> {
  const outDir = resolve(repoRoot, ".data/bench-web-dist");
  const graph: BundleGraph = { outDir, chunks: new Map(), html: { scripts: [], styles: [] } };
  await build({
    root: webRoot,
    configFile: resolve(webRoot, "vite.config.ts"),
    build: { outDir, emptyOutDir: true },
    plugins: [recordBundle(graph)],
    logLevel: "warn",
  });
  const html = await readFile(resolve(outDir, "index.html"), "utf8");
  graph.html = {
    scripts: referenced(html, /<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+)"/g),
    styles: referenced(html, /<link[^>]*rel="stylesheet"[^>]*\bhref="([^"]+)"/g),
  };
  return graph;
}
