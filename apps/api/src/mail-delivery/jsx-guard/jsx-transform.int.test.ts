import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { bundleOptions } from "../../../bundle-options";
import { renderCatalogue } from "./render-catalogue";

/**
 * The three ways our TypeScript runs must compile the workspace packages' JSX alike: Vitest, `tsx` started
 * in apps/api as `pnpm dev` starts the API, and the production bundle's esbuild options. They once
 * differed: tsx compiled packages/mail's layout to `React.createElement` without an import, and no mail
 * left `pnpm dev` ("React is not defined", ADR 0054).
 */
const apiRoot = resolve(import.meta.dirname, "../../..");
const repoRoot = resolve(apiRoot, "../..");
const entry = resolve(import.meta.dirname, "print-catalogue.ts");
// inside apps/api so that the bundle's external packages resolve from apps/api/node_modules
const bundleDir = resolve(apiRoot, "node_modules/.cache/jsx-guard");
const run = promisify(execFile);
const PRAGMA = "/** @jsxRuntime automatic @jsxImportSource react */";

afterAll(async () => {
  await rm(bundleDir, { recursive: true, force: true });
});

async function tsxFilesOfPackages(): Promise<string[]> {
  const files: string[] = [];
  for (const pkg of await readdir(join(repoRoot, "packages"))) {
    const entries = await readdir(join(repoRoot, "packages", pkg), { recursive: true }).catch(() => []);
    files.push(
      ...entries
        .filter((path) => path.endsWith(".tsx") && !path.split("/").includes("node_modules"))
        .map((path) => join("packages", pkg, path)),
    );
  }
  return files;
}

describe("JSX of the workspace packages", () => {
  it("every .tsx in packages/ names its own JSX transform", async () => {
    const files = await tsxFilesOfPackages();
    expect(files).toContain("packages/mail/src/layout.tsx");
    for (const file of files) {
      const source = await readFile(join(repoRoot, file), "utf8");
      expect(source.startsWith(PRAGMA), `${file} must start with ${PRAGMA}`).toBe(true);
    }
  });

  it("renders every mail the same under Vitest, tsx (as pnpm dev runs the API) and the production bundle", async () => {
    const inVitest = JSON.parse(JSON.stringify(await renderCatalogue())) as unknown;

    const tsx = await run(resolve(repoRoot, "node_modules/.bin/tsx"), [entry], {
      cwd: apiRoot,
      env: { ...process.env, NODE_ENV: "development" },
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(JSON.parse(tsx.stdout)).toEqual(inVitest);

    await mkdir(bundleDir, { recursive: true });
    const outfile = join(bundleDir, "print-catalogue.mjs");
    await build({ ...bundleOptions, entryPoints: [entry], outfile, absWorkingDir: apiRoot });
    const bundled = await run(process.execPath, [outfile], { cwd: apiRoot, maxBuffer: 16 * 1024 * 1024 });
    expect(JSON.parse(bundled.stdout)).toEqual(inVitest);

    // the rendered layout itself, so that three equally broken renders cannot pass
    const registration = (inVitest as Record<string, { html: string }>)["registration-confirmation"];
    expect(registration?.html).toContain("Kongress-Plattform");
    expect(registration?.html).toContain("E-Mail-Adresse bestätigen");
  }, 60_000);
});
