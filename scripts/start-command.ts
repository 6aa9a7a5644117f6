import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const BUNDLE = "apps/api/dist/server.mjs";

/**
 * The V8 flags of `pnpm start` (the root package.json's `start`: `node <flags> apps/api/dist/server.mjs`, ADR
 * 0142). What starts the production bundle in tests and benchmarks takes them from there, so it runs the bundle
 * as an operator's `pnpm start` does.
 */
export function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const [node, ...args] = scripts.start.trim().split(/\s+/);
  if (node !== "node" || args.pop() !== BUNDLE) {
    throw new Error(`package.json's start is not "node [flags] ${BUNDLE}": ${scripts.start}`);
  }
  return args;
}

/** `pnpm start` as arguments for this Node: its flags and the bundle (another build's when given). */
export function startArgs(bundle = resolve(root, BUNDLE)): string[] {
  return [...startFlags(), bundle];
}
