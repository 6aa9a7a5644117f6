import { createHmac } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS } from "@app/shared";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { secretKey, signAccessToken, verifyAccessToken } from "./access-token";

const key = secretKey("a-test-secret-of-at-least-32-characters!");
const user = { id: 42, roles: ["ROLE_USER" as const], sessionVersion: 3, sessionId: "c0ffee" };

describe("verifyAccessToken", () => {
  const now = Date.UTC(2026, 10, 23, 8, 0, 0);

  it("accepts the same token again (from the cache) and still refuses any changed copy", async () => {
    const { token } = await signAccessToken(user, key, now);
    expect(await verifyAccessToken(token, key, now)).toEqual(user);
    expect(await verifyAccessToken(token, key, now)).toEqual(user);
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`;
    expect(await verifyAccessToken(`${header}.${payload}.${flipped}`, key, now)).toBeNull();
    const other = secretKey("another-secret-of-at-least-32-characters");
    expect(await verifyAccessToken(token, other, now)).toBeNull();
  });

  it("refuses a remembered token once it has expired by the time it is given", async () => {
    const { token } = await signAccessToken(user, key, now);
    expect(await verifyAccessToken(token, key, now)).toEqual(user);
    expect(await verifyAccessToken(token, key, now + ACCESS_TOKEN_LIFETIME_MS - 1000)).toEqual(user);
    expect(await verifyAccessToken(token, key, now + ACCESS_TOKEN_LIFETIME_MS + 1000)).toBeNull();
  });

  it("refuses a token not yet remembered the same way (at the time it is given)", async () => {
    const { token } = await signAccessToken({ ...user, sessionId: "other" }, key, now);
    expect(await verifyAccessToken(token, key, now + ACCESS_TOKEN_LIFETIME_MS + 1000)).toBeNull();
    expect(await verifyAccessToken(token, key, now)).toEqual({ ...user, sessionId: "other" });
  });
});

describe("signAccessToken", () => {
  it("signs an HS256 token whose claims carry the session, issued now and expiring after the lifetime", async () => {
    const now = Date.UTC(2026, 10, 26, 8, 0, 0);
    const { token, expiresAt } = await signAccessToken(
      { ...user, roles: ["ROLE_USER", "ROLE_ADMIN"] },
      key,
      now,
    );
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    expect(decodeJwt(token)).toEqual({
      sub: "42",
      roles: ["ROLE_USER", "ROLE_ADMIN"],
      sv: 3,
      sid: "c0ffee",
      iat: now / 1000,
      exp: (now + ACCESS_TOKEN_LIFETIME_MS) / 1000,
    });
    expect(expiresAt).toBe(now + ACCESS_TOKEN_LIFETIME_MS);
  });
});

describe("verifyAccessToken refuses what is not a token of ours, still valid", () => {
  const nowSec = Math.floor(Date.UTC(2026, 10, 26, 8, 0, 0) / 1000);
  const sign = (claims: Record<string, unknown>, header: object = { alg: "HS256", typ: "JWT" }, k = key) => {
    const head = Buffer.from(JSON.stringify(header)).toString("base64url");
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const mac = createHmac("sha256", k).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${mac}`;
  };
  const claims = { sub: "42", roles: ["ROLE_USER"], sv: 3, sid: "c0ffee", iat: nowSec, exp: nowSec + 600 };

  it("accepts a well-signed token with our claims, in any header order, and refuses every other", async () => {
    const valid = sign(claims);
    const [head, body, mac] = valid.split(".") as [string, string, string];
    // [case, token, accepted]
    const tokens: [string, string, boolean][] = [
      ["valid", valid, true],
      ["nbf behind", sign({ ...claims, nbf: nowSec - 60 }), true],
      ["another header order", sign(claims, { typ: "JWT", alg: "HS256" }), true],
      [
        "another secret",
        sign(claims, undefined, secretKey("another-secret-of-at-least-32-characters")),
        false,
      ],
      [
        "a changed signature",
        `${head}.${body}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`,
        false,
      ],
      ["a changed payload", `${head}.${sign({ ...claims, sv: 4 }).split(".")[1]}.${mac}`, false],
      ["a fourth part", `${valid}.x`, false],
      ["alg none", `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${body}.`, false],
      ["HS512 in the header", sign(claims, { alg: "HS512", typ: "JWT" }), false],
      ["expired", sign({ ...claims, exp: nowSec - 1 }), false],
      ["expiring this second", sign({ ...claims, exp: nowSec }), false],
      ["without exp", sign({ sub: "42", roles: ["ROLE_USER"], sv: 3, sid: "c0ffee" }), false],
      ["exp as a string", sign({ ...claims, exp: String(nowSec + 600) }), false],
      ["nbf ahead", sign({ ...claims, nbf: nowSec + 60 }), false],
      ["iat as a string", sign({ ...claims, iat: "now" }), false],
      ["without a session", sign({ sub: "42", roles: ["ROLE_USER"], sv: 3, exp: nowSec + 600 }), false],
      ["an unknown role", sign({ ...claims, roles: ["ROLE_ROOT"] }), false],
      ["a subject that is no id", sign({ ...claims, sub: "42; DROP" }), false],
      ["a payload that is an array", sign([1, 2] as unknown as Record<string, unknown>), false],
    ];
    for (const [name, token, accepted] of tokens) {
      const answer = await verifyAccessToken(token, key, nowSec * 1000 + 500);
      expect(answer, name).toEqual(accepted ? user : null);
    }
  });
});
