/**
 * The tabs of /admin/manage by their search value. Only names: the route's search schema uses them, and
 * anything the route options reference loads with the route tree for every visitor (the tab components
 * load with the page). The accessibility suite walks the same list.
 */
export const ADMIN_TAB_VALUES = [
  "dashboard",
  "events",
  "packages",
  "package-orders",
  "ticket-orders",
  "users",
  "contents",
  "mail-templates",
  "legal-pages",
  "mail-outbox",
  "payment-notifications",
  "audit",
  "knowledge",
] as const;
export type AdminTab = (typeof ADMIN_TAB_VALUES)[number];
