/**
 * Values of its own for every secret the API refuses at its development value outside loopback-only
 * development (ADR 0053): for tests of production settings or of an API behind a proxy.
 */
export const OWN_SECRETS = {
  JWT_SECRET: "a-real-secret-of-at-least-32-characters!!",
  DIGISTORE_IPN_PASSPHRASE: "eine-echte-passphrase",
  CERTIFICATE_SECRET: "ein-eigener-schluessel-fuer-bescheinigungen",
  GATED_PATH_COUPLE_THERAPY: "/pt-9f8e7d6c5b",
  GATED_PASSWORD_COUPLE_THERAPY: "geheim-1",
  GATED_PATH_DEATH_CONGRESS: "/ts-1a2b3c4d5e",
  GATED_PASSWORD_DEATH_CONGRESS: "geheim-2",
};
