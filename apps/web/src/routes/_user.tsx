import { createFileRoute, Outlet } from "@tanstack/react-router";
import { requireRole } from "@/lib/guards";

/** Every route below needs ROLE_USER (spec section 2). */
export const Route = createFileRoute("/_user")({
  beforeLoad: ({ context, location }) => requireRole(context.auth, "ROLE_USER", location.href),
  component: Outlet,
});
