// Starts restoring the session (refresh cookie -> access token) while the app's script is still loading,
// and on the overview also its data; src/lib/boot.ts hands the answers to the app, which then does not ask
// again. The same requests the app would make itself.
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
if (location.pathname === "/") {
  window.__overviewPrefetch = window.__sessionRestore
    .then((answer) =>
      answer?.ok
        ? fetch("/trpc/congress.overview", { headers: { authorization: `Bearer ${answer.data.token}` } })
        : null,
    )
    .then((response) => (response?.ok ? response.json() : null))
    .then((body) => body?.result?.data ?? null)
    .catch(() => null);
}
