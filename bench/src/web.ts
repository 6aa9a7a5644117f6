/**
 * Page weight and Lighthouse: a production build of the web app with its own Vite config, the JavaScript and
 * CSS a first visit to each route loads (from the recorded chunk graph), the origins and cache headers of
 * what we serve, and Lighthouse's mobile audit of the login page and the logged-in overview, served by the
 * production server from exactly that build.
 */
import { seedDemo } from "@app/db";
import {
  type CacheCheck,
  cacheRows,
  checkCacheHeaders,
  foreignReferences,
  originAndCacheBudgets,
} from "./lib/asset-checks";
import { type BundleGraph, buildWebApp } from "./lib/bundle-graph";
import { startBenchDatabase } from "./lib/database";
import {
  type AuditedPage,
  auditPages,
  lighthouseBudgets,
  lighthouseFigures,
  lighthouseRows,
} from "./lib/lighthouse-pages";
import { type BenchResult, isShort } from "./lib/report";
import { readRouteChains } from "./lib/route-chains";
import { routeLoads } from "./lib/route-weights";
import { startProductionServer } from "./lib/server";
import { loginBudget, visitorBudget, weightRows } from "./lib/weight-budgets";

interface Served {
  cache: CacheCheck[];
  pages: AuditedPage[];
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

/** Hashed files a first visit always fetches: the scripts and style sheets of index.html. */
const htmlAssets = (graph: BundleGraph) => [...graph.html.scripts, ...graph.html.styles];
/** built with a content hash in the name: cached for a year */
const hashedAssets = (graph: BundleGraph) => htmlAssets(graph).filter((file) => file.startsWith("assets/"));
/** copied from public/ under a fixed name (e.g. boot.js): revalidated like the HTML */
const fixedNameAssets = (graph: BundleGraph) =>
  htmlAssets(graph)
    .filter((file) => !file.startsWith("assets/"))
    .map((file) => `/${file}`);

/** The production server on a seeded throwaway database, serving the build measured above. */
async function measureServed(graph: BundleGraph, short: boolean): Promise<Served> {
  const database = await startBenchDatabase("web");
  try {
    await seedDemo(database.handle.db);
    const server = await startProductionServer(database.url, { WEB_DIST_DIR: graph.outDir });
    try {
      const cache = await checkCacheHeaders(server.url, hashedAssets(graph), [
        "/",
        "/login",
        ...fixedNameAssets(graph),
      ]);
      return { cache, pages: await auditPages(server.url, short) };
    } finally {
      await server.stop();
    }
  } finally {
    await database.stop();
  }
}

export async function runWeb(): Promise<BenchResult> {
  const short = isShort();
  const build = await timed(buildWebApp);
  const graph = build.value;
  const loads = await routeLoads(graph, await readRouteChains());
  const foreign = await foreignReferences(graph.outDir);
  const served = await timed(() => measureServed(graph, short));
  const { cache, pages } = served.value;
  return {
    name: "web",
    short,
    tables: [
      {
        title: "First visit per route (entry, layouts and route chunks with their static imports)",
        rows: weightRows(loads),
      },
      { title: "Lighthouse (mobile, simulated throttling)", rows: lighthouseRows(pages) },
      { title: "Served by the production server (Accept-Encoding: br, gzip)", rows: cacheRows(cache) },
    ],
    budgets: [
      loginBudget(loads),
      visitorBudget(loads),
      ...originAndCacheBudgets(foreign, cache),
      ...lighthouseBudgets(pages),
    ],
    figures: {
      buildMs: build.ms,
      servedMs: served.ms,
      routes: loads.map((load) => ({
        route: load.route.file,
        path: load.route.path,
        js: load.js,
        css: load.cssSize,
        chunks: load.chunks.map((chunk) => chunk.fileName),
        styles: load.css,
      })),
      cache,
      lighthouse: lighthouseFigures(pages),
    },
  };
}
