import { isIP, isIPv4 } from "node:net";
import { DEATH_CONGRESS_ACTIVE_FROM } from "@app/shared";
import { compile as compileProxyTrust } from "@fastify/proxy-addr";
import { z } from "zod";

/** Placeholder secrets of .env.example; production refuses to start with them. */
export const DEV_JWT_SECRET = "dev-only-jwt-secret-change-me-0123456789abcdef";
export const DEV_IPN_PASSPHRASE = "dev-only-ipn-passphrase";
export const DEV_CERTIFICATE_SECRET = "dev-only-certificate-secret-change-me-0123456789";
export const DEV_GATED = {
  couplePath: "/paartherapie-aufzeichnung-demo",
  couplePassword: "demo-paartherapie",
  deathPath: "/tod-und-sterben-aufzeichnung-demo",
  deathPassword: "demo-tod-und-sterben",
} as const;

const gatedPath = z
  .string()
  .regex(/^\/[A-Za-z0-9._~-]{8,200}$/, "ein Pfad wie /abc-123..., mindestens 8 Zeichen, ohne weitere /");
const emailList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== ""),
  );

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .optional();

const securityContacts = z
  .string()
  .default("")
  .transform((value, ctx) => {
    const contacts = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => (/^[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/.test(entry) ? `mailto:${entry}` : entry));
    const bad = contacts.filter((entry) => !/^(https:\/\/\S+|mailto:\S+@\S+|tel:\+?[\d\s()-]+)$/.test(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `E-Mail-Adressen oder https:-, mailto:- bzw. tel:-Adressen erwartet; nicht erkannt: ${bad.join(", ")}`,
      });
    }
    return contacts;
  });

/** The two forms TRUST_PROXY takes, as its messages name them. */
const TRUST_PROXY_FORMS =
  "die Zahl der Proxys vor der API (z. B. TRUST_PROXY=1) oder ihre Adressen bzw. Netze (z. B. TRUST_PROXY=10.0.0.0/8,127.0.0.1)";

/** The names proxy-addr (Fastify's `trustProxy`) knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * Whether Fastify's proxy-addr takes the entry: it throws a TypeError at start for what it cannot parse
 * (a /0 prefix, an address form its parser does not know), so nothing it refuses gets past loadEnv.
 */
function compiles(entry: string): boolean {
  try {
    compileProxyTrust([entry]);
    return true;
  } catch {
    return false;
  }
}

/** One entry of a TRUST_PROXY list: an address, an address/prefix (CIDR) or a range name of proxy-addr. */
function isProxyAddress(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (PROXY_RANGE_NAMES.has(entry)) {
    return true;
  }
  const bits = Number(prefix);
  const shape =
    family !== 0 &&
    (prefix === undefined ||
      (rest.length === 0 && /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128)));
  return shape && compiles(entry);
}

/** An entry with the prefix /0 (`0.0.0.0/0`, `::/0`, `0/0`): a network of every address. */
const isEveryAddress = (entry: string): boolean => /\/0+$/.test(entry);

/**
 * Whom the API believes about the client's address (Fastify's `trustProxy`, ADR 0090): nobody (unset,
 * `false`, `0`), the last N proxies in front (`1`: the address the one proxy appended to X-Forwarded-For), or
 * the proxies with these addresses or CIDRs (`10.0.0.0/8,127.0.0.1`). `true` believes every entry, also the
 * ones the client wrote itself: `proxyProblems` refuses it in production.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): boolean | number | string[] => {
    if (value === "false" || value === "0") {
      return false;
    }
    if (value === "true") {
      return true;
    }
    if (/^\d{1,2}$/.test(value)) {
      return Number(value);
    }
    const entries = value.split(",").map((entry) => entry.trim());
    const everyone = entries.filter(isEveryAddress);
    if (everyone.length > 0) {
      ctx.addIssue({
        code: "custom",
        message:
          `ein Netz mit /0 umfasst alle Adressen (${everyone.map((entry) => `"${entry}"`).join(", ")}): die API glaubte ` +
          `dann jedem Client die Adresse, die er selbst in X-Forwarded-For schreibt; erwartet ${TRUST_PROXY_FORMS} ` +
          "(a /0 network trusts every client's own X-Forwarded-For entries)",
      });
      return z.NEVER;
    }
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `erwartet ${TRUST_PROXY_FORMS}; nicht erkannt: ${bad.map((entry) => `"${entry}"`).join(", ")}`,
      });
      return z.NEVER;
    }
    return entries;
  })
  .optional();

const NODE_ENVS = ["development", "test", "production"] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

const EnvSchema = z.object({
  NODE_ENV: z.enum(NODE_ENVS),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** empty = embedded PostgreSQL (dev only) */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * longest wait for one database answer (ms) before the request fails and the connection is dropped
   * (a frozen or unreachable database); raise it when MIGRATE_ON_START runs long migrations
   */
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  JWT_SECRET: z.string().min(32, "mindestens 32 Zeichen").default(DEV_JWT_SECRET),
  /**
   * derives each certificate's verification code (HMAC, ADR 0116): never change it once certificates
   * are issued, or their PDFs can no longer be made (their codes still verify); 32+ characters
   */
  CERTIFICATE_SECRET: z.string().min(32, "mindestens 32 Zeichen").default(DEV_CERTIFICATE_SECRET),
  /** public base URL used in mails and redirects */
  APP_URL: z.string().url().default("http://localhost:5173"),
  SMTP_URL: z.string().default("smtp://127.0.0.1:1025"),
  MAIL_FROM: z.string().default("Kongress-Plattform <noreply@example.com>"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** serve the built web app from this folder; default: the folder next to the bundle */
  WEB_DIST_DIR: z.string().optional(),
  TRUST_PROXY: trustProxy,
  /** apply pending migrations at start-up; default on, except in production (run `pnpm db:migrate`) */
  MIGRATE_ON_START: bool,
  /** the checkout provider's product URL; the product id is appended */
  DIGISTORE_PRODUCT_URL: z.string().url().default("https://www.digistore24.com/product/"),
  /** passphrase of the Digistore24 IPN signature (sha_sign) */
  DIGISTORE_IPN_PASSPHRASE: z.string().min(8).default(DEV_IPN_PASSPHRASE),
  /**
   * how long an API instance keeps the shared event and package lists of the overview; admin writes on
   * this instance clear it at once, other instances see them after at most this time (0 = no cache)
   */
  CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /**
   * how long an API instance keeps a visitor's finished overview answer (0 = not at all); database
   * triggers announce every change to it, so this is only the safety net (services/visitor/overview-cache.ts)
   */
  OVERVIEW_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** how many visitors' overview answers an instance keeps at most (a few KB each) */
  OVERVIEW_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /**
   * how long an API instance keeps whether an account's sessions still stand (0 = read on every call);
   * the same database notifications drop it at every change (credentials/session-states.ts)
   */
  SESSION_STATE_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** staff whitelist (comma-separated e-mail addresses) that bypasses the event and package date checks */
  STAFF_EMAILS: emailList,
  GATED_PATH_COUPLE_THERAPY: gatedPath.default(DEV_GATED.couplePath),
  GATED_PASSWORD_COUPLE_THERAPY: z.string().min(1).default(DEV_GATED.couplePassword),
  GATED_PATH_DEATH_CONGRESS: gatedPath.default(DEV_GATED.deathPath),
  GATED_PASSWORD_DEATH_CONGRESS: z.string().min(1).default(DEV_GATED.deathPassword),
  /** the death-congress package page opens at this instant */
  DEATH_CONGRESS_ACTIVE_FROM: z.coerce.date().default(new Date(DEATH_CONGRESS_ACTIVE_FROM)),
  /**
   * where to report a vulnerability, for `/.well-known/security.txt` (RFC 9116): comma-separated e-mail
   * addresses (written as mailto:) or https:, mailto: or tel: URIs; empty = no security.txt (404)
   */
  SECURITY_CONTACT: securityContacts,
  /**
   * the operators' token for `GET /metrics` (Prometheus, `Authorization: Bearer <token>`); unset = no
   * metrics (404). At least 32 characters without spaces, e.g. `openssl rand -hex 32` (ADR 0101)
   */
  METRICS_TOKEN: z
    .string()
    .min(32, "mindestens 32 Zeichen (z. B. openssl rand -hex 32)")
    .regex(/^[\x21-\x7e]+$/, "nur sichtbare ASCII-Zeichen, keine Leerzeichen")
    .optional(),
  /** oEmbed endpoint of the video host (tests point it at a local fake) */
  VIMEO_OEMBED_URL: z.string().url().default("https://vimeo.com/api/oembed.json"),
});

export type Env = z.infer<typeof EnvSchema>;

/** A hop count above this is more proxies than a deployment of ours has in front (CDN and balancer). */
const USUAL_MAX_HOPS = 2;

/**
 * What the configuration allows but is likely wrong: the app logs each once at start (app.ts). A hop count
 * believes that many X-Forwarded-For entries from the right; with fewer proxies in front the remaining
 * ones are the client's own, and each request could name a new address, as with the refused `true`.
 */
export function envWarnings(env: Env): string[] {
  const hops = env.TRUST_PROXY;
  if (typeof hops !== "number" || hops <= USUAL_MAX_HOPS) {
    return [];
  }
  return [
    `TRUST_PROXY=${hops}: die API glaubt den letzten ${hops} Einträgen in X-Forwarded-For. Stehen weniger Proxys ` +
      "vor ihr, schreibt der Client die übrigen selbst und kann mit jeder Anfrage eine neue Adresse nennen. " +
      "TRUST_PROXY muss der Zahl der Proxys vor der API entsprechen, oder es nennt ihre Adressen bzw. Netze " +
      "(z. B. TRUST_PROXY=10.0.0.0/8,127.0.0.1) " +
      "(the hop count must equal the number of proxies in front, or clients choose their own address)",
  ];
}

export class EnvError extends Error {}

/** The public values of .env.example (and the schema's defaults) that only a loopback-only API may use. */
const DEV_SECRETS: Record<string, string> = {
  JWT_SECRET: DEV_JWT_SECRET,
  DIGISTORE_IPN_PASSPHRASE: DEV_IPN_PASSPHRASE,
  CERTIFICATE_SECRET: DEV_CERTIFICATE_SECRET,
  GATED_PATH_COUPLE_THERAPY: DEV_GATED.couplePath,
  GATED_PASSWORD_COUPLE_THERAPY: DEV_GATED.couplePassword,
  GATED_PATH_DEATH_CONGRESS: DEV_GATED.deathPath,
  GATED_PASSWORD_DEATH_CONGRESS: DEV_GATED.deathPassword,
};

/** Whether `host` lets only this machine connect: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") {
    return true;
  }
  return isIPv4(bare) && bare.startsWith("127.");
}

/** Whether TRUST_PROXY names any proxy (anything but unset, `false` or `0`). */
const behindProxy = (value: string | undefined) =>
  value !== undefined && value.trim() !== "false" && value.trim() !== "0";

/**
 * ADR 0090: `TRUST_PROXY=true` takes the left-most X-Forwarded-For entry, which the client writes itself
 * behind every proxy that appends (nginx, AWS ALB, most others): each request could then name a new client
 * address and pass every per-address limit. Production refuses it; development keeps it for a quick try.
 */
function proxyProblems(raw: Record<string, string>): string[] {
  const production = raw.NODE_ENV !== "development" && raw.NODE_ENV !== "test";
  if (!production || raw.TRUST_PROXY?.trim() !== "true") {
    return [];
  }
  return [
    `  TRUST_PROXY: true glaubt jedem Eintrag in X-Forwarded-For, auch dem, den der Client selbst schreibt; in Produktion ${TRUST_PROXY_FORMS} angeben ` +
      "(true trusts client-written entries: give the number of proxies or their addresses)",
  ];
}

/**
 * ADR 0053: the development secrets are public (.env.example), so only an API that nobody else can
 * reach may use them. Production never may; development and test only on a loopback HOST without a
 * proxy in front (TRUST_PROXY=true: requests come from outside through it). Reads the raw variables, so
 * its lines come together with the schema's whatever else is wrong.
 */
function secretProblems(raw: Record<string, string>): string[] {
  const host = raw.HOST ?? "127.0.0.1";
  // an invalid NODE_ENV is reported by the schema; the strictest rule applies meanwhile
  const production = raw.NODE_ENV !== "development" && raw.NODE_ENV !== "test";
  let required: string;
  if (production) {
    required = "in Produktion ist ein eigener Wert erforderlich (production needs its own value)";
  } else if (!isLoopbackHost(host)) {
    required =
      `eigener Wert erforderlich, weil HOST=${host} nicht nur lokal erreichbar ist ` +
      `(set your own value: HOST=${host} is reachable from other machines)`;
  } else if (behindProxy(raw.TRUST_PROXY)) {
    required =
      `eigener Wert erforderlich, weil die API mit TRUST_PROXY=${raw.TRUST_PROXY} über einen Proxy von außen erreichbar ist ` +
      "(set your own value: behind a proxy the API is reachable from outside)";
  } else {
    return [];
  }
  const problems: string[] = [];
  if (production && raw.DATABASE_URL === undefined) {
    problems.push("  DATABASE_URL: in Produktion erforderlich (production needs a PostgreSQL URL)");
  }
  for (const [key, devValue] of Object.entries(DEV_SECRETS)) {
    if (raw[key] === undefined) {
      problems.push(`  ${key}: ${required}`);
    } else if (raw[key] === devValue) {
      problems.push(`  ${key}: ist der öffentliche Entwicklungswert aus .env.example; ${required}`);
    }
  }
  return problems;
}

export interface LoadEnvOptions {
  /**
   * NODE_ENV when the variable is unset: server.ts passes "production" in the esbuild bundle
   * (`pnpm start`), "development" under tsx and Vitest (ADR 0053)
   */
  defaultNodeEnv?: NodeEnv;
}

/** Validates the environment once at start-up and reports every bad field. */
export function loadEnv(
  source: Record<string, string | undefined> = process.env,
  options: LoadEnvOptions = {},
): Env {
  // treat empty strings like unset variables, as .env files often leave them empty
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
    ),
  );
  const raw = { NODE_ENV: options.defaultNodeEnv ?? "development", ...cleaned };
  const result = EnvSchema.safeParse(raw);
  const problems = [
    ...(result.success
      ? []
      : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)),
    ...secretProblems(raw),
    ...proxyProblems(raw),
  ];
  if (result.success && problems.length === 0) {
    return result.data;
  }
  if (cleaned.NODE_ENV === undefined && raw.NODE_ENV === "production") {
    problems.push(
      "NODE_ENV ist nicht gesetzt: das gebaute Bundle läuft dann als production. Zum lokalen Ausprobieren " +
        "NODE_ENV=development setzen (unset NODE_ENV means production in the bundle; NODE_ENV=development tries it locally).",
    );
  }
  throw new EnvError(`Ungültige Konfiguration:\n${problems.join("\n")}`);
}
