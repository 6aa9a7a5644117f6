// Starts restoring the session (refresh cookie -> access token) while the app's script is still loading;
// src/lib/auth.ts takes the answer instead of asking again. Same request as the app's own refresh.
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
