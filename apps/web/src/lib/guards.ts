import type { Role } from "@app/shared";
import { redirect } from "@tanstack/react-router";
import { hasRole } from "./auth";
import type { SessionManager } from "./session/session-manager";

/** Comfort only: the server checks every call. Sends visitors without the role to the login route. */
export function requireRole(auth: SessionManager, role: Role, href: string): void {
  const state = auth.getState();
  if (!hasRole(state, role)) {
    // a logged-in visitor without the role must not come back here after the login route sent them on
    const search = state.user ? {} : { redirect: href };
    throw redirect({ to: "/login/{-$congressId}/{-$showVideo}", search });
  }
}

/** Where a visitor goes after logging in (spec section 2, login behaviour). */
export function afterLoginTarget(
  params: { congressId?: string | undefined; showVideo?: string | undefined },
  redirectTo?: string,
) {
  if (params.congressId && params.showVideo) {
    return `/congress/${encodeURIComponent(params.congressId)}`;
  }
  if (params.congressId) {
    return `/participation/${encodeURIComponent(params.congressId)}`;
  }
  // only paths inside the app, never another origin
  if (redirectTo?.startsWith("/") && !redirectTo.startsWith("//") && !redirectTo.startsWith("/login")) {
    return redirectTo;
  }
  return "/";
}
