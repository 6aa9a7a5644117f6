import { createFileRoute } from "@tanstack/react-router";
import { requireRole } from "@/lib/guards";

/** Every route below needs ROLE_ADMIN (spec section 2). Without a component it renders its child route. */
export const Route = createFileRoute("/_admin")({
  beforeLoad: ({ context, location }) => requireRole(context.auth, "ROLE_ADMIN", location.href),
});
