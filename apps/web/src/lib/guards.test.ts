import { isRedirect } from "@tanstack/react-router";
import { describe, expect, it } from "vitest";
import { afterLoginTarget, loginAfterConfirmation, loginPage, requireRole, returnAddress } from "./guards";
import { createSessionManager, type SessionUser } from "./session/session-manager";

const visitor: SessionUser = {
  id: 1,
  email: "erika@example.com",
  firstname: "Erika",
  lastname: "Muster",
  roles: ["ROLE_USER"],
  newsletter: false,
};

function sessionOf(user: SessionUser | null) {
  const auth = createSessionManager({ refresh: () => Promise.reject(new Error("no session")) });
  if (user) {
    auth.signIn({ token: "t", expiresAt: Date.now() + 60_000, user });
  }
  return auth;
}

/** The navigation a guard's redirect asks for. */
function guardRedirect(run: () => void) {
  try {
    run();
  } catch (thrown) {
    if (isRedirect(thrown)) {
      return thrown.options;
    }
    throw thrown;
  }
  return undefined;
}

describe("afterLoginTarget", () => {
  it("follows the spec's login rules when no guard sent the visitor (a mail's /login/:congressId/:showVideo)", () => {
    expect(afterLoginTarget({})).toBe("/");
    expect(afterLoginTarget({ congressId: "4", showVideo: "1" })).toBe("/congress/4");
    expect(afterLoginTarget({ congressId: "4" })).toBe("/participation/4");
  });

  it("returns to the guarded address, path and search, and nowhere else", () => {
    expect(afterLoginTarget({}, "/profile")).toBe("/profile");
    expect(afterLoginTarget({}, "/congress-ticket-purchase/6?utm_source=newsletter")).toBe(
      "/congress-ticket-purchase/6?utm_source=newsletter",
    );
    // even with the parameters of a participation link: the redirect wins, nobody is signed up on the way
    expect(afterLoginTarget({ congressId: "6" }, "/congress-ticket-purchase/6")).toBe(
      "/congress-ticket-purchase/6",
    );
    expect(afterLoginTarget({ congressId: "8", showVideo: "1" }, "/admin/manage?tab=users")).toBe(
      "/admin/manage?tab=users",
    );
  });

  it("never leaves the app, nor goes back to the login page", () => {
    for (const outside of [
      "//evil.example.com",
      "https://evil.example.com",
      "/\\evil.example.com",
      "/\\/evil.example.com",
      "/x\u0009y",
      "/login",
      "/login/8",
      "/login?redirect=/profile",
      "profile",
      "",
    ]) {
      expect(afterLoginTarget({}, outside), outside).toBe("/");
    }
    // the spec's rules still hold when the redirect is unusable
    expect(afterLoginTarget({ congressId: "7" }, "//evil.example.com")).toBe("/participation/7");
    expect(afterLoginTarget({}, "/login-hilfe")).toBe("/login-hilfe");
  });
});

describe("requireRole", () => {
  it("sends a visitor without a session to /login itself, never with the guarded route's parameters", () => {
    const options = guardRedirect(() =>
      requireRole(sessionOf(null), "ROLE_USER", "/congress-ticket-purchase/6?utm_source=newsletter"),
    );
    expect(options).toMatchObject(loginPage("/congress-ticket-purchase/6?utm_source=newsletter"));
    expect(options?.params).toEqual({ congressId: undefined, showVideo: undefined });
  });

  it("lets a visitor with the role pass, and sends one without it to login without a way back", () => {
    expect(guardRedirect(() => requireRole(sessionOf(visitor), "ROLE_USER", "/profile"))).toBeUndefined();
    const options = guardRedirect(() => requireRole(sessionOf(visitor), "ROLE_ADMIN", "/admin/manage"));
    expect(options?.search).toEqual({});
    expect(options?.params).toEqual({ congressId: undefined, showVideo: undefined });
  });
});

describe("the way from a registration to the first login", () => {
  it("hands a path of this app on: the registration's return address, the confirmation's login page", () => {
    const target = "/congress-ticket-purchase/6?utm_source=newsletter";
    expect(returnAddress(target)).toBe(target);
    expect(loginAfterConfirmation({}, target)).toMatchObject({
      params: { congressId: undefined, showVideo: undefined },
      search: { redirect: target },
    });
    // the spec's parameters of the mail's link stay, beside the address
    expect(loginAfterConfirmation({ congressId: "4", showVideo: "1" }, target)).toMatchObject({
      params: { congressId: "4", showVideo: "1" },
      search: { redirect: target },
    });
  });

  it("drops an address from outside, as the login does", () => {
    for (const outside of [
      "//evil.example.com",
      "https://evil.example.com",
      "/\\evil.example.com",
      "/login",
    ]) {
      expect(returnAddress(outside), outside).toBeUndefined();
      expect(loginAfterConfirmation({ congressId: "4" }, outside)).toMatchObject({
        params: { congressId: "4" },
        search: {},
      });
    }
    expect(returnAddress(undefined)).toBeUndefined();
  });
});
