/**
 * The sections of /admin/manage are its child routes (`routes/_admin/admin.manage.*.tsx`). Each says in its
 * `staticData` what the navigation shows; the navigation, the table names and the old `?tab=` links read the
 * route tree, so no list of sections exists beside it. Types only: route options load with the route tree
 * for every visitor.
 */

/** The navigation's groups, by task (ADR 0073). */
export type AdminGroup = "Veranstaltungen & Inhalte" | "Verkauf" | "Personen" | "Kommunikation" | "System";

export interface AdminSection {
  /** its name in the navigation, on the phone's menu button and on its table */
  label: string;
  /** its group in the navigation; null for the overview, which stands above the groups */
  group: AdminGroup | null;
  /** its place in the navigation, counted over all sections (a group shows where its first section is) */
  position: number;
  /** what its error page says could not be loaded, when it is not "Die <label>" */
  what?: string;
}

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** set on the child routes of /admin/manage: the section this route is */
    adminSection?: AdminSection;
  }
}
