import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// This file runs from apps/api/src (tsx) or bundled into apps/api/dist/server.mjs: both one level below
// apps/api, so the same relative paths reach the repository's folders in dev and in production.
const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const paths = {
  migrations: resolve(apiRoot, "../../packages/db/drizzle"),
  webDist: resolve(apiRoot, "../web/dist"),
  localState: resolve(apiRoot, "../../.data"),
};
