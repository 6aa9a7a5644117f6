/**
 * The sections of /admin/manage by their search value (`?tab=`). Only names: the route's search schema uses
 * them, and anything the route options reference loads with the route tree for every visitor (labels,
 * groups and the section components load with the page: `_admin/-components/admin-nav.tsx`). The
 * accessibility suite walks the same list.
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
