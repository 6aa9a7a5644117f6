import type { BuildOptions } from "esbuild";

/**
 * How the API and the workspace packages it imports (TypeScript source) are bundled for production:
 * used by build.ts and by the guard that renders mails under tsx, Vitest and this bundle alike
 * (src/mail-delivery/jsx-guard/jsx-transform.int.test.ts). npm packages stay external.
 */
export const bundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  jsx: "automatic",
  logLevel: "warning",
  plugins: [
    {
      name: "externals",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith("@app/") || args.path.startsWith("node:")) {
            return undefined;
          }
          return { path: args.path, external: true };
        });
      },
    },
  ],
} satisfies BuildOptions;
