import type { Role } from "@app/shared";
import { redirect } from "@tanstack/react-router";
import { hasRole } from "./auth";
import type { SessionManager } from "./session/session-manager";

/** Comfort only: the server checks every call. Sends visitors without the role to the login route. */
export function requireRole(auth: SessionManager, role: Role, href: string): void {
  if (!hasRole(auth.getState(), role)) {
    throw redirect({ to: "/login/{-$congressId}/{-$showVideo}", search: { redirect: href } });
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
