import { lazyRouteComponent } from "@tanstack/react-router";

/**
 * The error pages, loaded only when a page fails: the first page of a visit stays small. Route options keep
 * them as they are (vite.config.ts does not split `errorComponent`): they are lazy themselves.
 */
export const LazyRouteError = lazyRouteComponent(() => import("./route-error"), "RouteError");

/** A section of /admin/manage that failed, inside the administration (`components/admin/section-error.tsx`). */
export const LazySectionError = lazyRouteComponent(() => import("./admin/section-error"), "SectionError");
