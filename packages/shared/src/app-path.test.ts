import { describe, expect, it } from "vitest";
import { isReturnPath } from "./app-path";
import { ZRegisterInput, ZResendConfirmationInput } from "./auth";
import { MSG } from "./messages";

/** Addresses a link must never lead to after a login, a registration or a mail confirmation. */
const OUTSIDE = [
  "//evil.example.com",
  "//evil.example.com/congress-ticket-purchase/6",
  "https://evil.example.com",
  "javascript:alert(1)",
  "/\\evil.example.com",
  "/\\/evil.example.com",
  "/x\u0009y",
  "/x\ny",
  "/login",
  "/login/8",
  "/login?redirect=/profile",
  "profile",
  "",
  `/${"x".repeat(2000)}`,
];

describe("isReturnPath", () => {
  it("takes a path of this app with its search", () => {
    for (const path of [
      "/",
      "/profile",
      "/congress-ticket-purchase/6?utm_source=newsletter",
      "/login-hilfe",
    ]) {
      expect(isReturnPath(path), path).toBe(true);
    }
  });

  it("refuses another origin, a backslash, control characters, the login page and overlong addresses", () => {
    for (const outside of [...OUTSIDE, undefined]) {
      expect(isReturnPath(outside), String(outside)).toBe(false);
    }
  });
});

const registration = {
  firstname: "Erika",
  lastname: "Muster",
  email: "erika@example.com",
  password: "sicheres-Passwort-1",
  dataProtection: true,
};

describe("the address a registration returns to", () => {
  it("is kept when it is a path of this app", () => {
    const parsed = ZRegisterInput.parse({ ...registration, redirect: "/congress-ticket-purchase/6?a=1" });
    expect(parsed.redirect).toBe("/congress-ticket-purchase/6?a=1");
    expect(ZRegisterInput.parse(registration).redirect).toBeUndefined();
    expect(
      ZResendConfirmationInput.parse({ email: "erika@example.com", redirect: "/profile" }).redirect,
    ).toBe("/profile");
  });

  it("refuses an address outside the app with its message, on the registration and on a resent confirmation", () => {
    for (const outside of [...OUTSIDE, 6, null]) {
      for (const [schema, input] of [
        [ZRegisterInput, registration],
        [ZResendConfirmationInput, { email: "erika@example.com" }],
      ] as const) {
        const result = schema.safeParse({ ...input, redirect: outside });
        expect(result.success, String(outside)).toBe(false);
        expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
          ["redirect", MSG.returnAddressInvalid],
        ]);
      }
    }
  });
});
