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
    const env = loadEnv({
      NODE_ENV: "production",
      DATABASE_URL: "postgres://a@b/c",
      JWT_SECRET: "a-real-secret-of-at-least-32-characters!!",
    });
    expect(env.NODE_ENV).toBe("production");
  });

  it("reports every bad field at once", () => {
    expect(() => loadEnv({ PORT: "abc", JWT_SECRET: "short" })).toThrow(/PORT[\s\S]*JWT_SECRET/);
  });
});
