import { type AnyRoute, type AnyRouter, redirect } from "@tanstack/react-router";

/**
 * Before the sections were routes, a section was `/admin/manage?tab=<name>` (`&order=` for the payment
 * notifications). Such a link, in a bookmark or a mail, goes on to the section's own address, the child route
 * of /admin/manage named like the old tab, with the rest of its search (which that section's search
 * validation keeps where it still means something). `?tab=dashboard` and unknown names open the overview.
 */
export function redirectOldTabLink(overview: AnyRoute, tab: string | undefined, search: object): void {
  if (tab === undefined) {
    return;
  }
  const { tab: _, ...rest } = search as Record<string, unknown>;
  const sections = Object.values(overview.parentRoute?.children ?? {}) as AnyRoute[];
  const section = sections.find(
    (route) =>
      route !== overview &&
      route.options.staticData?.adminSection &&
      route.fullPath === `${overview.parentRoute?.fullPath}/${tab}`,
  );
  // the target is found at run time, so its search is not checked against a route's type here
  throw redirect<AnyRouter>({
    to: section ? section.fullPath : "/admin/manage",
    search: section ? rest : {},
    replace: true,
  });
}
