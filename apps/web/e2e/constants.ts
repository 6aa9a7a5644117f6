/** Configuration the e2e server starts the API with, shared with the tests. */
export const E2E_GATED = {
  couple: { path: "/e2e-paartherapie-7c1f9a", password: "Paar-Passwort-2026" },
  death: { path: "/e2e-tod-und-sterben-3b8d2e", password: "Sterben-Passwort-2026" },
} as const;

/** the checkout simulator standing in for Digistore24 */
export const simulatorOrigin = () => `http://localhost:${process.env.E2E_SIMULATOR_PORT}`;

/**
 * The Vimeo ids the fake oEmbed endpoint (e2e/server.ts) answers a length for, in seconds (0: a live stream,
 * as Vimeo answers for one); every other video it answers without one, as Vimeo does for a private or
 * domain-restricted video (ADR 0105).
 */
export const E2E_VIMEO_LENGTHS: Readonly<Record<string, number>> = {
  "770000001": 5025,
  "770000002": 754,
  "770000005": 0,
};
