import { createFileRoute } from "@tanstack/react-router";
import { LazyRouteError } from "@/components/lazy-route-error";
import { requireRole } from "@/lib/guards";
import { NotFound } from "./-components/not-found";

/** Every route below needs ROLE_ADMIN (spec section 2). Without a component it renders its child route. */
export const Route = createFileRoute("/_admin")({
  beforeLoad: ({ context, location }) => requireRole(context.auth, "ROLE_ADMIN", location.href),
  errorComponent: LazyRouteError,
  notFoundComponent: NotFound,
});
