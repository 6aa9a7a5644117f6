import { isReturnPath, type Role } from "@app/shared";
import { redirect } from "@tanstack/react-router";
import { hasRole } from "./auth";
import type { SessionManager } from "./session/session-manager";

/**
 * The login page as every part of the app opens it (guards, logout, an ended session, the gated pages): at
 * `/login` itself, back to `redirectTo` when given. The parameters are emptied on purpose: a navigation without
 * them keeps the current route's, and `/login/8` (reached from `/congress/8`) would sign the next login up for
 * event 8. Only a link from outside (a mail) opens `/login/:congressId/:showVideo` (spec section 2).
 */
export function loginPage(redirectTo?: string) {
  return {
    to: "/login/{-$congressId}/{-$showVideo}",
    params: { congressId: undefined, showVideo: undefined },
    search: redirectTo ? { redirect: redirectTo } : {},
  } as const;
}

/** Comfort only: the server checks every call. Sends visitors without the role to the login route. */
export function requireRole(auth: SessionManager, role: Role, href: string): void {
  const state = auth.getState();
  if (!hasRole(state, role)) {
    // a logged-in visitor without the role must not come back here after the login route sent them on
    throw redirect(loginPage(state.user ? undefined : href));
  }
}

/**
 * Where a visitor goes after logging in. A login page a guard opened (`?redirect=`) returns to the guarded
 * address, path and search, and nowhere else; without one, the spec's rules (section 2, login behaviour):
 * congressId with showVideo the event's content, congressId alone the participation, else the overview.
 */
export function afterLoginTarget(
  params: { congressId?: string | undefined; showVideo?: string | undefined },
  redirectTo?: string,
) {
  if (isReturnPath(redirectTo)) {
    return redirectTo;
  }
  if (params.congressId && params.showVideo) {
    return `/congress/${encodeURIComponent(params.congressId)}`;
  }
  if (params.congressId) {
    return `/participation/${encodeURIComponent(params.congressId)}`;
  }
  return "/";
}

/**
 * The login page the mail confirmation goes on to: the spec's, keeping the link's congressId and showVideo
 * (section 2), and the guarded address the registration started from (`?redirect=`, which the link carries)
 * when it is a path of this app, so that the first login goes there (ADR 0081). The link may come from
 * anyone: another address is dropped, as on the login page.
 */
export function loginAfterConfirmation(
  params: { congressId?: string | undefined; showVideo?: string | undefined },
  redirectTo?: string,
) {
  return {
    to: "/login/{-$congressId}/{-$showVideo}",
    params: { congressId: params.congressId, showVideo: params.showVideo },
    search: isReturnPath(redirectTo) ? { redirect: redirectTo } : {},
    replace: true,
  } as const;
}

/** The guarded address a registration hands on to its confirmation link, if it is a path of this app. */
export const returnAddress = (redirectTo: string | undefined): string | undefined =>
  isReturnPath(redirectTo) ? redirectTo : undefined;
