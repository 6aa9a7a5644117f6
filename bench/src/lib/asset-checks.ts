import { readdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Budget, Row } from "./report";

/** An absolute URL (`https://…`, `http://…`) or a protocol-relative one (`//fonts.example`). */
const FOREIGN = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;

function htmlReferences(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href|srcset)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] ?? "");
}

/** `url(…)` and `@import` targets; comments (the Tailwind licence banner names its website) do not count. */
function cssReferences(css: string): string[] {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const urls = [...code.matchAll(/url\(\s*["']?([^"')]+)/gi)].map((m) => m[1] ?? "");
  const imports = [...code.matchAll(/@import\s+["']([^"']+)/gi)].map((m) => m[1] ?? "");
  return [...urls, ...imports];
}

/**
 * Every reference of the built index.html and style sheets to another origin (web fonts, CDNs, images):
 * those would cost a connection on the first visit and escape our cache headers.
 */
export async function foreignReferences(outDir: string): Promise<string[]> {
  const found: string[] = [];
  const html = await readFile(resolve(outDir, "index.html"), "utf8");
  found.push(
    ...htmlReferences(html)
      .filter((url) => FOREIGN.test(url))
      .map((url) => `index.html: ${url}`),
  );
  const assets = await readdir(resolve(outDir, "assets"));
  for (const name of assets.filter((file) => file.endsWith(".css"))) {
    const css = await readFile(resolve(outDir, "assets", name), "utf8");
    found.push(
      ...cssReferences(css)
        .filter((url) => FOREIGN.test(url))
        .map((url) => `${name}: ${url}`),
    );
  }
  return found;
}

export interface CacheCheck {
  path: string;
  status: number;
  cacheControl: string;
  /** what a browser accepting brotli and gzip gets */
  contentEncoding: string;
  ok: boolean;
  expected: string;
}

const maxAge = (cacheControl: string) => Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
const ONE_YEAR = 365 * 24 * 60 * 60;

async function headersOf(
  url: string,
): Promise<{ status: number; cacheControl: string; contentEncoding: string }> {
  const response = await fetch(url, { headers: { "accept-encoding": "br, gzip" } });
  await response.arrayBuffer();
  return {
    status: response.status,
    cacheControl: response.headers.get("cache-control") ?? "(none)",
    contentEncoding: response.headers.get("content-encoding") ?? "identity",
  };
}

/**
 * Hashed assets: cached for a year without revalidation; the HTML shell (any SPA path) and files with a
 * fixed name: always revalidated.
 */
export async function checkCacheHeaders(
  serverUrl: string,
  hashedAssets: string[],
  revalidatedPaths: string[],
): Promise<CacheCheck[]> {
  const checks: CacheCheck[] = [];
  for (const asset of hashedAssets) {
    const path = `/${asset}`;
    const headers = await headersOf(serverUrl + path);
    const { status, cacheControl } = headers;
    const ok = status === 200 && maxAge(cacheControl) >= ONE_YEAR && /\bimmutable\b/.test(cacheControl);
    checks.push({ path, ...headers, ok, expected: "max-age ≥ 1 year, immutable" });
  }
  for (const path of revalidatedPaths) {
    const headers = await headersOf(serverUrl + path);
    const revalidated = /\bno-cache\b|\bno-store\b|\bmax-age=0\b/.test(headers.cacheControl);
    checks.push({ path, ...headers, ok: headers.status === 200 && revalidated, expected: "no-cache" });
  }
  return checks;
}

export function originAndCacheBudgets(foreign: string[], cache: CacheCheck[]): Budget[] {
  const badCache = cache.filter((check) => !check.ok);
  const describe = (check: CacheCheck) =>
    `${check.path}: ${check.status} cache-control "${check.cacheControl}" (expected ${check.expected})`;
  return [
    {
      name: "no third-party origins in index.html and CSS",
      ok: foreign.length === 0,
      detail:
        foreign.length === 0
          ? "fonts, images and styles come from our origin"
          : `${foreign.length} references`,
      evidence: foreign.join("\n"),
    },
    {
      name: "cache headers",
      ok: badCache.length === 0,
      detail: `${cache.length - badCache.length} of ${cache.length} responses as expected (hashed assets immutable, HTML and fixed-name files no-cache)`,
      evidence: cache.map(describe).join("\n"),
    },
  ];
}

export const cacheRows = (cache: CacheCheck[]): Row[] =>
  cache.map(({ path, status, cacheControl, contentEncoding }) => ({
    path,
    status,
    "cache-control": cacheControl,
    encoding: contentEncoding,
  }));
