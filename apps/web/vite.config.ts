import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

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

export default defineConfig({
  // the router plugin must run before React's
  plugins: [
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) },
      // zod without its eval probe, which our CSP reports as a violation (see the file)
      { find: /^zod$/, replacement: fileURLToPath(new URL("./src/lib/zod-no-eval.ts", import.meta.url)) },
    ],
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(
      ["/api", "/trpc", "/uploads", "/healthz", "/readyz"].map((path) => [path, api]),
    ),
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    rolldownOptions: {
      // zod-no-eval.ts only configures zod: needed where zod is used, never on its own (zod stays out of
      // the first page that way, see src/lib/search.ts and lib/form.ts)
      treeshake: { moduleSideEffects: [{ test: /src\/lib\/zod-no-eval\.ts$/, sideEffects: false }] },
      output: {
        // Everything a first visit needs in one file instead of ~40 small shared chunks, each a request
        // (our server speaks HTTP/1.1: six at a time). Route components, admin area and editor stay lazy.
        codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] },
      },
    },
  },
});
