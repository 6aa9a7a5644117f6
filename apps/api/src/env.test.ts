import { describe, expect, it } from "vitest";
import { DEV_JWT_SECRET, loadEnv } from "./env";

describe("loadEnv", () => {
  it("has working defaults for development", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe("development");
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
      GATED_PATH_COUPLE_THERAPY: "/pt-9f8e7d6c5b",
      GATED_PASSWORD_COUPLE_THERAPY: "geheim-1",
      GATED_PATH_DEATH_CONGRESS: "/ts-1a2b3c4d5e",
      GATED_PASSWORD_DEATH_CONGRESS: "geheim-2",
      DIGISTORE_IPN_PASSPHRASE: "eine-echte-passphrase",
      STAFF_EMAILS: " Team@Example.com, ,b@example.com",
    });
    expect(env.NODE_ENV).toBe("production");
    expect(env.STAFF_EMAILS).toEqual(["team@example.com", "b@example.com"]);
  });

  it("reports every bad field at once", () => {
    expect(() => loadEnv({ PORT: "abc", JWT_SECRET: "short" })).toThrow(/PORT[\s\S]*JWT_SECRET/);
    expect(() => loadEnv({ GATED_PATH_DEATH_CONGRESS: "/a/b" })).toThrow(/GATED_PATH_DEATH_CONGRESS/);
  });
});
