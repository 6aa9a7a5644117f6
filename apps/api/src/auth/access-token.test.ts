import { ACCESS_TOKEN_LIFETIME_MS } from "@app/shared";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { secretKey, signAccessToken, verifyAccessToken } from "./access-token";

const key = secretKey("a-test-secret-of-at-least-32-characters!");
const user = { id: 42, roles: ["ROLE_USER" as const], sessionVersion: 3 };

describe("verifyAccessToken", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("accepts the same token again (from the cache) and still refuses any changed copy", async () => {
    const { token } = await signAccessToken(user, key);
    expect(await verifyAccessToken(token, key)).toEqual(user);
    expect(await verifyAccessToken(token, key)).toEqual(user);
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`;
    expect(await verifyAccessToken(`${header}.${payload}.${flipped}`, key)).toBeNull();
    expect(await verifyAccessToken(token, secretKey("another-secret-of-at-least-32-characters"))).toBeNull();
  });

  it("refuses a remembered token once it has expired", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-23T08:00:00Z") });
    const { token } = await signAccessToken(user, key);
    expect(await verifyAccessToken(token, key)).toEqual(user);
    vi.setSystemTime(Date.now() + ACCESS_TOKEN_LIFETIME_MS + 1000);
    expect(await verifyAccessToken(token, key)).toBeNull();
  });
});

describe("signAccessToken", () => {
  it("makes exactly the token jose's SignJWT makes for the same session and time", async () => {
    const now = Date.UTC(2026, 10, 26, 8, 0, 0);
    const { token, expiresAt } = await signAccessToken(
      { ...user, roles: ["ROLE_USER", "ROLE_ADMIN"] },
      key,
      now,
    );
    const jose = await new SignJWT({ roles: ["ROLE_USER", "ROLE_ADMIN"], sv: user.sessionVersion })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(String(user.id))
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(key);
    expect(token).toBe(jose);
    expect(expiresAt).toBe(now + ACCESS_TOKEN_LIFETIME_MS);
  });
});
