import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type Rolldown } from "vite";

const api = process.env.API_URL ?? "http://127.0.0.1:3000";

const brotli = promisify(brotliCompress);
const gzipBest = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, once and at the highest levels; the API
 * serves them (`preCompressed` in apps/api/src/static.ts), so no request pays for compression.
 */
function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    async writeBundle({ dir }) {
      if (!dir) {
        return;
      }
      const files = (await readdir(dir, { recursive: true })).filter((file) =>
        /\.(js|css|html|svg)$/.test(file),
      );
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(join(dir, file));
          const quality = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
          await writeFile(join(dir, `${file}.br`), await brotli(content, { params: quality }));
          await writeFile(join(dir, `${file}.gz`), await gzipBest(content, { level: 9 }));
        }),
      );
    },
  };
}

/** Everything a first visit needs, in one file (see `codeSplitting` below). */
const FIRST_LOAD_CHUNK = "app";

/**
 * The login page's form parts, which most other pages use as well (see `codeSplitting` below): one file
 * instead of a small chunk each, the login page being the first page of most visits.
 */
const FORM_PARTS =
  /src[\\/]components[\\/]ui[\\/](card|input|label|form-field|checkbox)\.tsx$|src[\\/]lib[\\/]schema-form\.ts$|react-hook-form[\\/]|@tanstack[\\/]react-query[\\/].*[\\/]useMutation\.js$/;

/** Shared helpers and icons of the overview's cards (see `codeSplitting` below). */
const OVERVIEW_SHARED =
  /packages[\\/]shared[\\/]src[\\/](events|text|dates)\.ts$|lucide-react[\\/].*[\\/](external-link|circle-check)\.mjs$|src[\\/]lib[\\/]attendance\.ts$/;

/** What public/boot.js carries until the build fills it in (and still carries in dev: no preloads). */
const PLACEHOLDER = "const routeChunks = {};";

/**
 * The route chunks public/boot.js preloads (`<link rel="modulepreload">`) while the app's script is still
 * loading, so that the app finds them in the cache once it runs instead of asking for them only then (a
 * round trip on a phone's network after the app's first task). Keys are the names boot.js uses.
 */
const PRELOADED_ROUTES: Record<string, string> = {
  overview: "src/routes/_user/index.tsx",
  login: "src/routes/login.{-$congressId}.{-$showVideo}.tsx",
};

const isChunk = (item: Rolldown.OutputBundle[string] | undefined): item is Rolldown.OutputChunk =>
  item?.type === "chunk";

/** The chunks named in `start` and everything they import, leaving out `skip`. */
function withImports(bundle: Rolldown.OutputBundle, start: string[], skip = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const pending = [...start];
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const chunk = bundle[name];
    if (isChunk(chunk) && !seen.has(name) && !skip.has(name)) {
      seen.add(name);
      pending.push(...chunk.imports);
    }
  }
  return seen;
}

/** The route's own chunks and what they import, without what index.html loads anyway. */
function chunksOf(bundle: Rolldown.OutputBundle, routeFile: string): string[] {
  const chunks = Object.values(bundle).filter(isChunk);
  const initial = withImports(
    bundle,
    chunks.filter((chunk) => chunk.isEntry || chunk.name === FIRST_LOAD_CHUNK).map((chunk) => chunk.fileName),
  );
  const route = chunks.filter(
    (chunk) =>
      chunk.isDynamicEntry &&
      chunk.moduleIds.some((id) => id === routeFile || id.startsWith(`${routeFile}?`)),
  );
  return [
    ...withImports(
      bundle,
      route.map((chunk) => chunk.fileName),
      initial,
    ),
  ];
}

function routePreloads(root: string, preloaded: Set<string>): Plugin {
  let preloads: Record<string, string[]> = {};
  return {
    name: "route-preloads",
    apply: "build",
    generateBundle(_, bundle) {
      preloads = Object.fromEntries(
        Object.entries(PRELOADED_ROUTES).map(([name, file]) => {
          const files = chunksOf(bundle, resolve(root, file));
          if (files.length === 0) {
            this.error(`route-preloads: no chunk for ${file}`);
          }
          for (const fileName of files) {
            preloaded.add(fileName);
          }
          return [name, files.map((fileName) => `/${fileName}`)];
        }),
      );
    },
    // before the other writeBundle hooks (precompress) see boot.js
    writeBundle: {
      order: "pre",
      sequential: true,
      async handler({ dir }) {
        if (!dir) {
          return;
        }
        const path = join(dir, "boot.js");
        const boot = await readFile(path, "utf8");
        if (!boot.includes(PLACEHOLDER)) {
          this.error(`route-preloads: boot.js lacks \`${PLACEHOLDER}\``);
        }
        await writeFile(path, boot.replace(PLACEHOLDER, `const routeChunks = ${JSON.stringify(preloads)};`));
      },
    },
  };
}

/**
 * Marks the chunk index.html loads for eager compilation (V8's explicit compile hints, Chrome 136+): V8
 * compiles its functions on a background thread while the file streams in, instead of on the main thread
 * when each is first called during the app's start (most of that chunk runs on every first visit). Only a
 * comment for other engines. It must be the file's first line, so it is added after Vite's own preamble.
 */
function compileHints(preloaded: Set<string>): Plugin {
  const hint = "//# allFunctionsCalledOnLoad";
  return {
    name: "compile-hints",
    apply: "build",
    generateBundle: {
      order: "post",
      handler(_, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || (chunk.name !== FIRST_LOAD_CHUNK && !preloaded.has(chunk.fileName))) {
            continue;
          }
          chunk.code = `${hint}\n${chunk.code}`;
          // one more line at the top: every mapping moves down by one
          const map = bundle[`${chunk.fileName}.map`];
          if (map?.type === "asset" && typeof map.source === "string") {
            const json = JSON.parse(map.source);
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          }
        }
      },
    },
  };
}

/** `@/` is src; the component tests (vitest.config.ts) resolve the app's modules the same way. */
export const alias = [
  { find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) },
  // zod without its eval probe, which our CSP reports as a violation (see the file)
  { find: /^zod$/, replacement: fileURLToPath(new URL("./src/lib/zod-no-eval.ts", import.meta.url)) },
];

/** The route chunks boot.js preloads, filled in by routePreloads: they also get the compile hint. */
const preloadedChunks = new Set<string>();

export default defineConfig({
  // the router plugin must run before React's
  plugins: [
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      // a route's loader goes with its component: the router splits only components by default, so the
      // loaders and what they import were part of the first page's file (docs/performance.md). Error
      // components stay unsplit: each is a lazy component already (components/lazy-route-error.ts), and a
      // split would add a chunk and an import per route to the first page's file (ADR 0095). Pending
      // components stay unsplit too: they show while the route's code is still arriving, so they cannot be
      // part of it (ADR 0111).
      codeSplittingOptions: {
        defaultBehavior: [["loader", "component"], ["notFoundComponent"]],
      },
    }),
    react(),
    tailwindcss(),
    routePreloads(fileURLToPath(new URL(".", import.meta.url)), preloadedChunks),
    compileHints(preloadedChunks),
    precompress(),
  ],
  resolve: { alias },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(
      ["/api", "/trpc", "/uploads", "/healthz", "/readyz", "/.well-known"].map((path) => [path, api]),
    ),
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    rolldownOptions: {
      // zod-no-eval.ts only configures zod: needed where zod is used, never on its own (zod stays out of
      // the first page that way, see src/lib/search.ts and authSchema in lib/schema-form.ts)
      treeshake: { moduleSideEffects: [{ test: /src\/lib\/zod-no-eval\.ts$/, sideEffects: false }] },
      output: {
        // Everything a first visit needs in one file instead of ~40 small shared chunks, each a request
        // (our server speaks HTTP/1.1: six at a time). Route components, admin area and editor stay lazy.
        codeSplitting: {
          groups: [
            { name: FIRST_LOAD_CHUNK, tags: ["$initial"] },
            { name: "form-parts", test: FORM_PARTS },
            // The small modules the overview's cards share with other visitor routes, in one file instead of
            // four (boot.js preloads them with the overview while the app's script is still loading, and
            // each request in flight then slows that script down).
            { name: "visitor-shared", test: OVERVIEW_SHARED },
          ],
        },
      },
    },
  },
});
