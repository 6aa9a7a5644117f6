import { createHmac } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS } from "@app/shared";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  OWN_HEADER,
  secretKey,
  signAccessToken,
  verifyAccessToken,
  verifyOwnToken,
  verifyWithJose,
} from "./access-token";

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

  it("refuses a token not yet remembered the same way (jose's check, at the time it is given)", async () => {
    const { token } = await signAccessToken({ ...user, sessionId: "other" }, key, now);
    expect(await verifyAccessToken(token, key, now + ACCESS_TOKEN_LIFETIME_MS + 1000)).toBeNull();
    expect(await verifyWithJose(token, key, now + ACCESS_TOKEN_LIFETIME_MS + 1000)).toBeNull();
    expect(await verifyWithJose(token, key, now)).toMatchObject({ sid: "other" });
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
    const jose = await new SignJWT({
      roles: ["ROLE_USER", "ROLE_ADMIN"],
      sv: user.sessionVersion,
      sid: user.sessionId,
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(String(user.id))
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(key);
    expect(token).toBe(jose);
    expect(expiresAt).toBe(now + ACCESS_TOKEN_LIFETIME_MS);
  });
});

describe("verifyOwnToken (the synchronous check of our own tokens)", () => {
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, header: object = { alg: "HS256", typ: "JWT" }, k = key) => {
    const head = Buffer.from(JSON.stringify(header)).toString("base64url");
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const mac = createHmac("sha256", k).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${mac}`;
  };
  const claims = { sub: "42", roles: ["ROLE_USER"], sv: 3, iat: now, exp: now + 600 };

  it("recognises every token signAccessToken writes (else each goes the slow way)", async () => {
    const { token } = await signAccessToken(user, key, now * 1000);
    expect(token.split(".")[0]).toBe(OWN_HEADER);
    expect(verifyOwnToken(token, key, now)).toEqual(await verifyWithJose(token, key, now * 1000));
    expect(verifyOwnToken(token, key, now)).toMatchObject({ sub: "42", sv: 3 });
  });

  it("accepts only what jose accepts and leaves everything else to jose", async () => {
    const valid = sign(claims);
    const [head, body, mac] = valid.split(".") as [string, string, string];
    // [case, token, accepted here (else left to jose, whatever it says)]
    const tokens: [string, string, boolean][] = [
      ["valid", valid, true],
      ["nbf behind", sign({ ...claims, nbf: now - 60 }), true],
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
      ["a signature with padding (jose accepts it)", `${valid}=`, false],
      ["a fourth part", `${valid}.x`, false],
      ["alg none", `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${body}.`, false],
      ["another header order (jose accepts it)", sign(claims, { typ: "JWT", alg: "HS256" }), false],
      ["HS512 in the header", sign(claims, { alg: "HS512", typ: "JWT" }), false],
      ["expired", sign({ ...claims, exp: now - 1 }), false],
      ["expiring this second", sign({ ...claims, exp: now }), false],
      ["without exp (jose accepts it, verifyAccessToken does not)", sign({ sub: "42", sv: 3 }), false],
      ["exp as a string", sign({ ...claims, exp: String(now + 600) }), false],
      ["nbf ahead", sign({ ...claims, nbf: now + 60 }), false],
      ["iat as a string", sign({ ...claims, iat: "now" }), false],
      ["a payload that is an array", sign([1, 2] as unknown as Record<string, unknown>), false],
    ];
    for (const [name, token, accepted] of tokens) {
      const ours = verifyOwnToken(token, key, now);
      const jose = await verifyWithJose(token, key, now * 1000 + 500);
      if (accepted) {
        expect(jose, name).not.toBeNull();
        expect(ours, name).toEqual(jose);
      } else {
        expect(ours, name).toBeUndefined();
      }
    }
    // and the refusals stay jose's: none of the tampered, expired or foreign tokens passes
    for (const [name, token] of tokens.slice(2).filter(([n]) => !n.includes("jose accepts"))) {
      expect(await verifyAccessToken(token, key, now * 1000 + 500), name).toBeNull();
    }
  });
});
