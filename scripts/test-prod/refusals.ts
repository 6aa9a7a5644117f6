import { expectThat, isReady, ownSecrets, sleep, startBundle, stopBundle } from "./processes";

/** What a bundle must have of its own unless it runs as development on loopback (ADR 0053). */
const SECRETS = [
  "JWT_SECRET",
  "DIGISTORE_IPN_PASSPHRASE",
  "CERTIFICATE_SECRET",
  "GATED_PATH_COUPLE_THERAPY",
  "GATED_PASSWORD_COUPLE_THERAPY",
  "GATED_PATH_DEATH_CONGRESS",
  "GATED_PASSWORD_DEATH_CONGRESS",
];

interface Refusal {
  name: string;
  env: Record<string, string>;
  /** the variables its message must name, each on a line of its own */
  names: string[];
}

/**
 * Starts the bundle in ways it must refuse: without the development fallback, nothing public may sign
 * tokens or open the gated pages. With the real database where it helps, so a broken check shows as a
 * server that starts (and answers /readyz) instead of failing on something else.
 */
export function refusals(databaseUrl: string): Refusal[] {
  const rest = { SMTP_URL: "smtp://127.0.0.1:1", LOG_LEVEL: "warn" };
  return [
    {
      name: "NODE_ENV unset, HOST=0.0.0.0, no secrets",
      env: { ...rest, HOST: "0.0.0.0" },
      names: ["DATABASE_URL", ...SECRETS],
    },
    {
      name: "NODE_ENV unset on loopback with a database but no secrets (no development defaults)",
      env: { ...rest, HOST: "127.0.0.1", DATABASE_URL: databaseUrl },
      names: SECRETS,
    },
    {
      name: "NODE_ENV=development, HOST=0.0.0.0, no secrets",
      env: { ...rest, NODE_ENV: "development", HOST: "0.0.0.0", DATABASE_URL: databaseUrl },
      names: SECRETS,
    },
    {
      name: "NODE_ENV=development on loopback behind a proxy (TRUST_PROXY=true), no secrets",
      env: { ...rest, NODE_ENV: "development", TRUST_PROXY: "true", DATABASE_URL: databaseUrl },
      names: SECRETS,
    },
    {
      name: "production with its own secrets but TRUST_PROXY=true (believes the client's own X-Forwarded-For)",
      env: {
        ...rest,
        ...ownSecrets(),
        NODE_ENV: "production",
        TRUST_PROXY: "true",
        DATABASE_URL: databaseUrl,
      },
      names: ["TRUST_PROXY"],
    },
  ];
}

/** The bundle exits non-zero at once, and its message names every variable of `refusal.names`. */
export async function checkRefused(refusal: Refusal): Promise<void> {
  const bundle = await startBundle(refusal.env);
  const until = Date.now() + 30_000;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void bundle.exited.then((result) => {
    exit = result;
  });
  while (exit === undefined) {
    const serving = await isReady(bundle);
    if (serving || Date.now() > until) {
      await stopBundle(bundle);
    }
    expectThat(
      !serving,
      `the bundle to refuse to start (${refusal.name})`,
      "it started and answered /readyz",
      bundle.tail(),
    );
    expectThat(
      Date.now() <= until,
      `the bundle to exit within 30 s (${refusal.name})`,
      "it was still running",
      bundle.tail(),
    );
    await sleep(100);
  }
  const output = bundle.output();
  expectThat(
    exit.code !== 0 && exit.code !== null,
    `the bundle to exit with a non-zero code (${refusal.name})`,
    `it ended with ${exit.signal ?? `exit code ${exit.code}`}`,
    bundle.tail(),
  );
  const named = refusal.names.filter((name) => new RegExp(`^ {2}${name}: `, "m").test(output));
  const missing = refusal.names.filter((name) => !named.includes(name));
  expectThat(
    missing.length === 0 && output.includes("Ungültige Konfiguration"),
    `its message ("Ungültige Konfiguration: ...") to name each of ${refusal.names.join(", ")} (${refusal.name})`,
    `it did not name ${missing.join(", ") || "(the header is missing)"}; it exited with ${exit.code}, printing:\n${bundle.tail(40)}`,
  );
}
