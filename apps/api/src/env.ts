import { DEATH_CONGRESS_ACTIVE_FROM } from "@app/shared";
import { z } from "zod";

/** Placeholder secrets of .env.example; production refuses to start with them. */
export const DEV_JWT_SECRET = "dev-only-jwt-secret-change-me-0123456789abcdef";
export const DEV_IPN_PASSPHRASE = "dev-only-ipn-passphrase";
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

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
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
    /** public base URL used in mails and redirects */
    APP_URL: z.string().url().default("http://localhost:5173"),
    SMTP_URL: z.string().default("smtp://127.0.0.1:1025"),
    MAIL_FROM: z.string().default("Kongress-Plattform <noreply@example.com>"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** serve the built web app from this folder; default: the folder next to the bundle */
    WEB_DIST_DIR: z.string().optional(),
    TRUST_PROXY: bool,
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
    /** staff whitelist (comma-separated e-mail addresses) that bypasses the event and package date checks */
    STAFF_EMAILS: emailList,
    GATED_PATH_COUPLE_THERAPY: gatedPath.default(DEV_GATED.couplePath),
    GATED_PASSWORD_COUPLE_THERAPY: z.string().min(1).default(DEV_GATED.couplePassword),
    GATED_PATH_DEATH_CONGRESS: gatedPath.default(DEV_GATED.deathPath),
    GATED_PASSWORD_DEATH_CONGRESS: z.string().min(1).default(DEV_GATED.deathPassword),
    /** the death-congress package page opens at this instant */
    DEATH_CONGRESS_ACTIVE_FROM: z.coerce.date().default(new Date(DEATH_CONGRESS_ACTIVE_FROM)),
    /** oEmbed endpoint of the video host (tests point it at a local fake) */
    VIMEO_OEMBED_URL: z.string().url().default("https://vimeo.com/api/oembed.json"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") {
      return;
    }
    if (!env.DATABASE_URL) {
      ctx.addIssue({ code: "custom", path: ["DATABASE_URL"], message: "in Produktion erforderlich" });
    }
    const devValues: [keyof typeof env, string][] = [
      ["DIGISTORE_IPN_PASSPHRASE", DEV_IPN_PASSPHRASE],
      ["GATED_PATH_COUPLE_THERAPY", DEV_GATED.couplePath],
      ["GATED_PASSWORD_COUPLE_THERAPY", DEV_GATED.couplePassword],
      ["GATED_PATH_DEATH_CONGRESS", DEV_GATED.deathPath],
      ["GATED_PASSWORD_DEATH_CONGRESS", DEV_GATED.deathPassword],
    ];
    for (const [key, devValue] of devValues) {
      if (env[key] === devValue) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "in Produktion muss ein eigener Wert gesetzt sein",
        });
      }
    }
    if (env.JWT_SECRET === DEV_JWT_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["JWT_SECRET"],
        message: "in Produktion darf der Entwicklungswert nicht benutzt werden",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

/** Validates the environment once at start-up and reports every bad field. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // treat empty strings like unset variables, as .env files often leave them empty
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Ungültige Konfiguration:\n${lines.join("\n")}`);
  }
  return result.data;
}
