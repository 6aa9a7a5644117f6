// Starts restoring the session (refresh cookie -> access token) while the app's script is still loading,
// and on the overview also its data; src/lib/boot.ts hands the answers to the app, which then does not ask
// again. The same requests the app would make itself, as are the route chunks preloaded below.
window.__sessionRestore = fetch("/api/auth/token/refresh", {
  method: "POST",
  credentials: "same-origin",
  headers: { "content-type": "application/json" },
  body: "{}",
}).then(
  (response) =>
    response.json().then(
      (data) => ({ ok: response.ok, data }),
      () => ({ ok: false, data: {} }),
    ),
  () => null,
);

// The chunks of the overview and of the login route with their imports, filled in by the build
// (routePreloads in vite.config.ts); empty in dev.
const routeChunks = {};

// Fetches the route's chunks now, so the app finds them ready instead of asking for them after its
// script ran (the same files, with the same attributes, as the app's own preload).
function preloadRoute(name) {
  for (const href of routeChunks[name] ?? []) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.as = "script";
    link.crossOrigin = "";
    link.href = href;
    document.head.append(link);
  }
}

if (location.pathname.startsWith("/login")) {
  preloadRoute("login");
}
if (location.pathname === "/") {
  window.__overviewPrefetch = window.__sessionRestore
    .then((answer) => {
      const data = answer?.ok
        ? fetch("/trpc/congress.getOverview", { headers: { authorization: `Bearer ${answer.data.token}` } })
        : null;
      // without a session the overview sends the visitor to the login route
      preloadRoute(answer?.ok ? "overview" : "login");
      return data;
    })
    .then((response) => (response?.ok ? response.json() : null))
    .then((body) => body?.result?.data ?? null)
    .catch(() => null);
}
