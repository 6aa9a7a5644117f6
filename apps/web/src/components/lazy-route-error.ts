import { lazyRouteComponent } from "@tanstack/react-router";

/** The error page, loaded only when a page fails: the first page of a visit stays small. */
export const LazyRouteError = lazyRouteComponent(() => import("./route-error"), "RouteError");
