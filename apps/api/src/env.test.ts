import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import {
  DEV_CERTIFICATE_SECRET,
  DEV_GATED,
  DEV_IPN_PASSPHRASE,
  DEV_JWT_SECRET,
  EnvError,
  envWarnings,
  isLoopbackHost,
  loadEnv,
} from "./env";
import { trustProxyOption } from "./lib/client-address";
import { OWN_SECRETS } from "./testing/own-secrets";

/** Every variable that must have its own value outside loopback-only development (ADR 0053). */
const SECRET_KEYS = [
  "JWT_SECRET",
  "DIGISTORE_IPN_PASSPHRASE",
  "CERTIFICATE_SECRET",
  "GATED_PATH_COUPLE_THERAPY",
  "GATED_PASSWORD_COUPLE_THERAPY",
  "GATED_PATH_DEATH_CONGRESS",
  "GATED_PASSWORD_DEATH_CONGRESS",
];

const DEV_SECRETS = {
  JWT_SECRET: DEV_JWT_SECRET,
  DIGISTORE_IPN_PASSPHRASE: DEV_IPN_PASSPHRASE,
  CERTIFICATE_SECRET: DEV_CERTIFICATE_SECRET,
  GATED_PATH_COUPLE_THERAPY: DEV_GATED.couplePath,
  GATED_PASSWORD_COUPLE_THERAPY: DEV_GATED.couplePassword,
  GATED_PATH_DEATH_CONGRESS: DEV_GATED.deathPath,
  GATED_PASSWORD_DEATH_CONGRESS: DEV_GATED.deathPassword,
};

/** The message loadEnv throws for `source`, or "" when it accepts it. */
function problems(...args: Parameters<typeof loadEnv>): string {
  try {
    loadEnv(...args);
    return "";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The keys of the "  KEY: message" lines of a loadEnv message. */
function namedKeys(message: string): string[] {
  return [...message.matchAll(/^ {2}([A-Z_]+):/gm)].map((match) => match[1] ?? "");
}

describe("loadEnv", () => {
  it("has working defaults for development", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe("development");
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("refuses to start production without a database or with the development secret", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(/DATABASE_URL[\s\S]*JWT_SECRET/);
    expect(() =>
      loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://a@b/c", JWT_SECRET: DEV_JWT_SECRET }),
    ).toThrow(/JWT_SECRET/);
    const production = {
      NODE_ENV: "production",
      DATABASE_URL: "postgres://a@b/c",
      JWT_SECRET: "a-real-secret-of-at-least-32-characters!!",
    };
    expect(() => loadEnv(production)).toThrow(
      /GATED_PATH_COUPLE_THERAPY[\s\S]*GATED_PASSWORD_DEATH_CONGRESS/,
    );
    const env = loadEnv({
      ...production,
      ...OWN_SECRETS,
      STAFF_EMAILS: " Team@Example.com, ,b@example.com",
    });
    expect(env.NODE_ENV).toBe("production");
    expect(env.STAFF_EMAILS).toEqual(["team@example.com", "b@example.com"]);
  });

  it("refuses the development values in production even on loopback, each by name", () => {
    const message = problems({ NODE_ENV: "production", DATABASE_URL: "postgres://a@b/c", ...DEV_SECRETS });
    expect(namedKeys(message)).toEqual(SECRET_KEYS);
    expect(message).toMatch(/JWT_SECRET: ist der öffentliche Entwicklungswert/);
  });

  it("takes the default NODE_ENV it is given (production in the bundle), unless NODE_ENV is set", () => {
    const unset = problems({}, { defaultNodeEnv: "production" });
    expect(namedKeys(unset)).toEqual(["DATABASE_URL", ...SECRET_KEYS]);
    // the message says why a bare `pnpm start` is production and how to try the bundle locally
    expect(unset).toMatch(/NODE_ENV ist nicht gesetzt[\s\S]*NODE_ENV=development/);
    expect(loadEnv({ NODE_ENV: "development" }, { defaultNodeEnv: "production" }).NODE_ENV).toBe(
      "development",
    );
    expect(loadEnv({ NODE_ENV: "test" }, { defaultNodeEnv: "production" }).NODE_ENV).toBe("test");
    const env = loadEnv(
      { DATABASE_URL: "postgres://a@b/c", ...OWN_SECRETS },
      { defaultNodeEnv: "production" },
    );
    expect(env.NODE_ENV).toBe("production");
    // an explicit NODE_ENV=production fails for itself, without the hint about the default
    expect(problems({ NODE_ENV: "production" }, { defaultNodeEnv: "production" })).not.toMatch(
      /nicht gesetzt/,
    );
  });

  it("refuses the development secrets when HOST is reachable from other machines, naming each", () => {
    for (const NODE_ENV of ["development", "test"]) {
      const defaulted = problems({ NODE_ENV, HOST: "0.0.0.0" });
      expect(namedKeys(defaulted)).toEqual(SECRET_KEYS);
      expect(defaulted).toContain(
        "  JWT_SECRET: eigener Wert erforderlich, weil HOST=0.0.0.0 nicht nur lokal erreichbar ist (set your own value",
      );
      // set to the values of .env.example counts like unset
      const copied = problems({ NODE_ENV, HOST: "192.168.1.20", ...DEV_SECRETS });
      expect(namedKeys(copied)).toEqual(SECRET_KEYS);
      expect(copied).toContain("HOST=192.168.1.20");
    }
    for (const HOST of ["::", "example.com", "10.0.0.1"]) {
      expect(namedKeys(problems({ HOST }))).toEqual(SECRET_KEYS);
    }
  });

  it("names only the variables still at their development value", () => {
    const { JWT_SECRET, GATED_PASSWORD_DEATH_CONGRESS, ...rest } = OWN_SECRETS;
    expect(namedKeys(problems({ HOST: "0.0.0.0", ...rest }))).toEqual([
      "JWT_SECRET",
      "GATED_PASSWORD_DEATH_CONGRESS",
    ]);
    const env = loadEnv({ HOST: "0.0.0.0", ...OWN_SECRETS });
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.JWT_SECRET).toBe(JWT_SECRET);
    expect(env.GATED_PASSWORD_DEATH_CONGRESS).toBe(GATED_PASSWORD_DEATH_CONGRESS);
  });

  it("refuses the development secrets behind a proxy, even on loopback", () => {
    for (const TRUST_PROXY of ["true", "1"]) {
      const message = problems({ HOST: "127.0.0.1", TRUST_PROXY });
      expect(namedKeys(message)).toEqual(SECRET_KEYS);
      expect(message).toContain(`TRUST_PROXY=${TRUST_PROXY}`);
    }
    expect(loadEnv({ TRUST_PROXY: "true", ...OWN_SECRETS }).TRUST_PROXY).toBe(true);
    expect(loadEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
  });

  it("takes TRUST_PROXY as a hop count or a list of proxy addresses and networks (ADR 0090)", () => {
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db.example/k", ...OWN_SECRETS };
    expect(loadEnv({ ...production, TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ ...production, TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(
      loadEnv({ ...production, TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback" }).TRUST_PROXY,
    ).toEqual(["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8", "loopback"]);
    expect(loadEnv({ ...production, TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    for (const bad of ["yes", "10.0.0.0/33", "10.0.0.1,,10.0.0.2", "proxy.example.com", "::1/129"]) {
      const message = problems({ ...production, TRUST_PROXY: bad });
      expect(message, bad).toMatch(
        /^ {2}TRUST_PROXY: erwartet die Zahl der Proxys .*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8,127\.0\.0\.1/m,
      );
    }
  });

  it("refuses a network of every address (/0) with a German message instead of proxy-addr's TypeError", () => {
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db.example/k", ...OWN_SECRETS };
    for (const everyone of [
      "0.0.0.0/0",
      "::/0",
      "::0/0",
      "0/0",
      "0:0:0:0:0:0:0:0/0",
      "10.0.0.0/8, 0.0.0.0/0",
      "203.0.113.7/00",
      "::ffff:0.0.0.0/0",
    ]) {
      let thrown: unknown;
      try {
        loadEnv({ ...production, TRUST_PROXY: everyone });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, everyone).toBeInstanceOf(EnvError);
      const message = (thrown as Error).message;
      expect(namedKeys(message), everyone).toEqual(["TRUST_PROXY"]);
      expect(message, everyone).toMatch(/^ {2}TRUST_PROXY: .*\/0 umfasst alle Adressen/m);
      expect(message, everyone).toContain("TRUST_PROXY=10.0.0.0/8,127.0.0.1");
    }
  });

  it("never accepts a TRUST_PROXY that Fastify's proxy-addr cannot compile: the start fails with the configuration message", () => {
    const candidates = [
      "0.0.0.0/0",
      "10.0.0.0/8,::/0",
      "10.0.0.0/0",
      "fe80::1%eth0",
      "fe80::1%eth0/64",
      "::ffff:10.0.0.1/104",
      "::1.2.3.4",
      "1.2.3.4/033",
      "::1/0128",
      "10.0.0.1/255.0.0.0",
      "loopback,linklocal,uniquelocal",
      "10.0.0.1/ 8",
      "10.0.0.1/8/8",
      "fe80::1%",
    ];
    for (const value of candidates) {
      const refused = problems({ NODE_ENV: "development", ...OWN_SECRETS, TRUST_PROXY: value });
      if (refused !== "") {
        expect(refused, value).toMatch(/^ {2}TRUST_PROXY: /m);
        continue;
      }
      const env = loadEnv({ NODE_ENV: "development", ...OWN_SECRETS, TRUST_PROXY: value });
      expect(() => Fastify({ trustProxy: trustProxyOption(env.TRUST_PROXY) }), value).not.toThrow();
    }
  });

  it("warns at start about a hop count above 2: TRUST_PROXY must equal the number of proxies in front", () => {
    const env = (TRUST_PROXY?: string) => loadEnv({ NODE_ENV: "development", ...OWN_SECRETS, TRUST_PROXY });
    for (const quiet of [undefined, "0", "1", "2", "10.0.0.0/8,127.0.0.1"]) {
      expect(envWarnings(env(quiet)), quiet).toEqual([]);
    }
    const [warning, ...more] = envWarnings(env("3"));
    expect(more).toEqual([]);
    expect(warning).toMatch(/^TRUST_PROXY=3: /);
    expect(warning).toContain("Zahl der Proxys");
    expect(envWarnings(env("12"))[0]).toMatch(/^TRUST_PROXY=12: /);
  });

  it("refuses a bare TRUST_PROXY=true in production with a German message naming both forms (ADR 0090)", () => {
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db.example/k", ...OWN_SECRETS };
    const message = problems({ ...production, TRUST_PROXY: "true" });
    expect(namedKeys(message)).toEqual(["TRUST_PROXY"]);
    expect(message).toContain("TRUST_PROXY=1");
    expect(message).toContain("TRUST_PROXY=10.0.0.0/8,127.0.0.1");
    // the bundle's default NODE_ENV is production too
    expect(
      namedKeys(
        problems(
          { ...OWN_SECRETS, DATABASE_URL: "postgres://db.example/k", TRUST_PROXY: "true" },
          { defaultNodeEnv: "production" },
        ),
      ),
    ).toEqual(["TRUST_PROXY"]);
    // development keeps it for a quick try behind a local proxy
    expect(loadEnv({ NODE_ENV: "development", ...OWN_SECRETS, TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
  });

  it("accepts the development secrets on every loopback host", () => {
    for (const HOST of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) {
      expect(loadEnv({ NODE_ENV: "development", HOST, ...DEV_SECRETS }).JWT_SECRET).toBe(DEV_JWT_SECRET);
    }
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("127.example.com")).toBe(false);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
    expect(isLoopbackHost("::")).toBe(false);
  });

  it("keeps /metrics off without METRICS_TOKEN and takes only a long token without spaces (ADR 0101)", () => {
    expect(loadEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    const token = "0123456789abcdef0123456789abcdef";
    expect(loadEnv({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(problems({ METRICS_TOKEN: token.slice(1) })).toMatch(/METRICS_TOKEN: mindestens 32 Zeichen/);
    expect(problems({ METRICS_TOKEN: `${token} x` })).toMatch(/METRICS_TOKEN: nur sichtbare ASCII-Zeichen/);
  });

  it("reports every bad field at once", () => {
    expect(() => loadEnv({ PORT: "abc", JWT_SECRET: "short" })).toThrow(/PORT[\s\S]*JWT_SECRET/);
    expect(() => loadEnv({ GATED_PATH_DEATH_CONGRESS: "/a/b" })).toThrow(/GATED_PATH_DEATH_CONGRESS/);
    // a malformed field and the secrets rule in one message
    expect(namedKeys(problems({ PORT: "abc", HOST: "0.0.0.0" }))).toEqual(["PORT", ...SECRET_KEYS]);
  });
});
