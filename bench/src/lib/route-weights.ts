import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { BundleGraph, ChunkNode } from "./bundle-graph";
import type { RouteChain } from "./route-chains";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface Compressed {
  gzip: number;
  brotli: number;
}

export interface RouteLoad {
  route: RouteChain;
  chunks: ChunkNode[];
  css: string[];
  js: Compressed;
  cssSize: Compressed;
}

/** A route's modules: the route file itself plus the virtual `?tsr-split=…` / `?tsr-shared=…` parts. */
const belongsTo = (moduleId: string, file: string) => moduleId === file || moduleId.startsWith(`${file}?`);

/**
 * Chunks a first visit loads: what index.html loads (the entry, normally), the chunks of the route and its
 * layouts, and their static imports.
 */
export function firstVisitChunks(graph: BundleGraph, route: RouteChain): ChunkNode[] {
  const start = [...graph.chunks.values()].filter(
    (chunk) =>
      chunk.isEntry ||
      graph.html.scripts.includes(chunk.fileName) ||
      chunk.modules.some(({ id }) => route.chain.some((file) => belongsTo(id, file))),
  );
  const seen = new Map<string, ChunkNode>();
  const visit = (chunk: ChunkNode) => {
    if (seen.has(chunk.fileName)) {
      return;
    }
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const imported = graph.chunks.get(name);
      if (imported) {
        visit(imported);
      }
    }
  };
  start.forEach(visit);
  return [...seen.values()];
}

async function compress(buffer: Buffer): Promise<Compressed> {
  const [gz, br] = await Promise.all([
    gzipAsync(buffer, { level: 9 }),
    brotliAsync(buffer, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
      },
    }),
  ]);
  return { gzip: gz.length, brotli: br.length };
}

/** Compressed sizes of the written files, each computed once: most routes share most chunks. */
function compressedSizes(outDir: string): (name: string) => Promise<Compressed> {
  const cache = new Map<string, Promise<Compressed>>();
  return (name) => {
    let sizes = cache.get(name);
    if (!sizes) {
      sizes = readFile(resolve(outDir, name)).then(compress);
      cache.set(name, sizes);
    }
    return sizes;
  };
}

const sum = (sizes: Compressed[]): Compressed => ({
  gzip: sizes.reduce((total, s) => total + s.gzip, 0),
  brotli: sizes.reduce((total, s) => total + s.brotli, 0),
});

/** JavaScript and CSS of a first visit to each route, each file compressed on its own as it is served. */
export async function routeLoads(graph: BundleGraph, routes: RouteChain[]): Promise<RouteLoad[]> {
  const sizeOf = compressedSizes(graph.outDir);
  return Promise.all(
    routes.map(async (route) => {
      const chunks = firstVisitChunks(graph, route);
      const css = [...new Set([...graph.html.styles, ...chunks.flatMap((chunk) => chunk.css)])];
      const js = sum(await Promise.all(chunks.map((chunk) => sizeOf(chunk.fileName))));
      const cssSize = sum(await Promise.all(css.map((name) => sizeOf(name))));
      return { route, chunks, css, js, cssSize };
    }),
  );
}
