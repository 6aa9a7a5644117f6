import { type Budget, type Row, repoRoot } from "./report";
import type { RouteLoad } from "./route-weights";

/** the login route's first-visit JavaScript (ADR 0075: 150 KB, for one form library) */
export const LOGIN_JS_GZIP_LIMIT = 150 * 1024;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const isAdmin = (load: RouteLoad) =>
  load.route.chain.some((file) => /\/src\/routes\/_admin(\/|\.tsx?$)/.test(file));

export function weightRows(loads: RouteLoad[]): Row[] {
  return loads.map((load) => ({
    route: load.route.file,
    path: load.route.path,
    "JS gzip KB": kb(load.js.gzip),
    "JS brotli KB": kb(load.js.brotli),
    "CSS gzip KB": kb(load.cssSize.gzip),
    "CSS brotli KB": kb(load.cssSize.brotli),
    chunks: load.chunks.length,
  }));
}

/** The largest contributors to a route's JavaScript: npm packages and app folders, by minified bytes. */
function largestParts(load: RouteLoad, count: number): string[] {
  const bytes = new Map<string, number>();
  for (const { id, bytes: size } of load.chunks.flatMap((chunk) => chunk.modules)) {
    const part = partOf(id);
    bytes.set(part, (bytes.get(part) ?? 0) + size);
  }
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part, size]) => `${kb(size).toFixed(1).padStart(6)} KB minified  ${part}`);
}

function partOf(id: string): string {
  const at = id.lastIndexOf("/node_modules/");
  if (at < 0) {
    return shortId(id)
      .replace(/\?.*$/, "")
      .replace(/[^/]*$/, "");
  }
  const [scope = "", name = ""] = id.slice(at + "/node_modules/".length).split("/");
  return scope.startsWith("@") ? `${scope}/${name}` : scope;
}

export function loginBudget(loads: RouteLoad[]): Budget {
  const login = loads.find((load) => /(^|\/)login[.]/.test(load.route.file));
  if (!login) {
    return { name: "login route JS", ok: false, detail: "no login route found in src/routes" };
  }
  return {
    name: "login route JS",
    ok: login.js.gzip <= LOGIN_JS_GZIP_LIMIT,
    detail: `${kb(login.js.gzip)} KB gzip (limit ${kb(LOGIN_JS_GZIP_LIMIT)} KB) in ${login.chunks.length} chunks`,
    evidence: ["largest parts:", ...largestParts(login, 15)].join("\n"),
  };
}

const ADMIN_ONLY = [/\/apps\/web\/src\/routes\/_admin\//, /\/apps\/web\/src\/components\/admin\//];
const EDITOR = [/\/node_modules\/@tiptap\//, /\/node_modules\/prosemirror-/];

/**
 * Admin and editor modules a visitor route loads. The bare admin route files are exempt: the generated
 * route tree imports every route's definition (path, search schema, guard); their components, and anything
 * the definition shares with them (`?tsr-shared`), must stay in lazy chunks.
 */
function adminModules(load: RouteLoad, routeFiles: Set<string>): string[] {
  return load.chunks.flatMap((chunk) =>
    chunk.modules
      .map(({ id }) => id)
      .filter((id) => !routeFiles.has(id))
      .filter((id) => [...ADMIN_ONLY, ...EDITOR].some((pattern) => pattern.test(id)))
      .map((id) => `${shortId(id)}  (in ${chunk.fileName})`),
  );
}

/** `…/node_modules/.pnpm/x@1/node_modules/@tiptap/core/…` → `@tiptap/core/…`; app files relative to apps/web. */
function shortId(id: string): string {
  return id
    .replace(/^.*\/node_modules\//, "")
    .replace(`${repoRoot}/apps/web/`, "")
    .replace(`${repoRoot}/`, "");
}

/** TanStack moves what a route's definition shares with its component into `?tsr-shared`, loaded eagerly. */
function sharedHint(modules: string[]): string[] {
  const shared = modules.filter((id) => id.includes("?tsr-shared"));
  return shared.length === 0
    ? []
    : [
        `hint: ${shared.map((id) => id.split("?")[0]).join(", ")} share(s) a binding between the route options`,
        "(validateSearch, loader, …) and the component; everything that binding references ships to every",
        "visitor. Keep JSX and component imports out of what the options use.",
      ];
}

export function visitorBudget(loads: RouteLoad[]): Budget {
  const routeFiles = new Set(loads.flatMap((load) => load.route.chain));
  const visitors = loads.filter((load) => !isAdmin(load));
  const offenders = visitors
    .map((load) => ({ load, modules: adminModules(load, routeFiles) }))
    .filter((entry) => entry.modules.length > 0);
  const modules = [...new Set(offenders.flatMap((entry) => entry.modules))].sort();
  return {
    name: "visitor routes load no admin/editor code",
    ok: offenders.length === 0,
    detail:
      offenders.length === 0
        ? `${visitors.length} visitor routes load nothing from routes/_admin, components/admin, @tiptap, prosemirror`
        : `${offenders.length} of ${visitors.length} visitor routes load ${modules.length} admin/editor modules`,
    evidence: [
      `routes: ${offenders.map((entry) => entry.load.route.file).join(", ")}`,
      ...modules,
      ...sharedHint(modules),
    ].join("\n"),
  };
}
