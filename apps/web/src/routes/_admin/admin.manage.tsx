import type { EnsureQueryDataOptions } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { SectionLabel } from "@/components/admin/admin-resource";
import { Page } from "@/components/layout/page";
import { ADMIN_TAB_VALUES, type AdminTab } from "@/lib/admin-tabs";
import { oneOf, optionalString } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import { AdminNav, SECTION_LABELS } from "./-components/admin-nav";
import { AuditTab, auditPage } from "./-components/audit-tab";
import { CongressesTab, congressesPage } from "./-components/congresses-tab";
import { ContentsTab, contentsPage } from "./-components/contents-tab";
import { DashboardTab } from "./-components/dashboard-tab";
import { KnowledgeTab } from "./-components/knowledge-tab";
import { LegalPagesTab } from "./-components/legal-pages-tab";
import { MailOutboxTab, outboxPage } from "./-components/mail-outbox-tab";
import { MailTemplatesTab, templatesPage } from "./-components/mail-templates-tab";
import { OrdersTab, ordersPage } from "./-components/orders-tab";
import { PackagesTab, packagesPage } from "./-components/packages-tab";
import {
  notificationFilters,
  notificationsPage,
  PaymentNotificationsTab,
} from "./-components/payment-notifications-tab";
import { TwoFactorPanel } from "./-components/two-factor/two-factor-panel";
import { UsersTab, usersPage } from "./-components/users-tab";

interface AdminSearch {
  tab?: AdminTab | undefined;
  /** the order number the payment notifications tab opens filtered by (the order tables link there) */
  order?: string | undefined;
}

const SECTIONS: Record<AdminTab, (search: AdminSearch) => ReactNode> = {
  dashboard: () => <DashboardTab />,
  events: () => <CongressesTab />,
  packages: () => <PackagesTab />,
  contents: () => <ContentsTab />,
  "package-orders": () => <OrdersTab kind="package" />,
  "ticket-orders": () => <OrdersTab kind="ticket" />,
  "payment-notifications": ({ order }) => <PaymentNotificationsTab key={order} initialOrderNumber={order} />,
  users: () => <UsersTab />,
  "mail-templates": () => <MailTemplatesTab />,
  "mail-outbox": () => <MailOutboxTab />,
  "legal-pages": () => <LegalPagesTab />,
  audit: () => <AuditTab />,
  knowledge: () => <KnowledgeTab />,
};

// biome-ignore lint/suspicious/noExplicitAny: each section's own query (answer, error and key)
type FirstQuery = (search: AdminSearch) => EnsureQueryDataOptions<any, any, any, any>;

/**
 * What a section asks for first (its table's first page, unfiltered; the dashboard's figures), loaded by the
 * route so that hovering a section's link already fetches it. The sections ask with the same functions.
 */
const FIRST_QUERY: Partial<Record<AdminTab, FirstQuery>> = {
  dashboard: () => trpc.admin.getDashboard.queryOptions(),
  events: () => congressesPage(),
  packages: () => packagesPage(),
  contents: () => contentsPage(),
  "package-orders": () => ordersPage("package"),
  "ticket-orders": () => ordersPage("ticket"),
  "payment-notifications": ({ order }) => notificationsPage(notificationFilters(order)),
  users: () => usersPage(),
  "mail-templates": () => templatesPage(),
  "mail-outbox": () => outboxPage(),
  audit: () => auditPage(),
};

export const Route = createFileRoute("/_admin/admin/manage")({
  validateSearch: (search: Record<string, unknown>): AdminSearch => ({
    tab: oneOf(search.tab, ADMIN_TAB_VALUES, "dashboard"),
    order: optionalString(search.order, 100),
  }),
  loaderDeps: ({ search }) => ({ tab: search.tab ?? "dashboard", order: search.order }),
  // The two-factor notice and what the opened section asks for first; further pages and filters load inside
  // the section. The loader goes to the chunk of the component (vite.config.ts), not into the route tree.
  loader: ({ context: { queryClient }, deps }) => {
    const first = FIRST_QUERY[deps.tab];
    return Promise.all([
      queryClient.ensureQueryData(trpc.admin.twoFactor.getStatus.queryOptions()),
      first && queryClient.ensureQueryData(first(deps)),
    ]);
  },
  component: AdminManage,
});

function AdminManage() {
  const search = Route.useSearch();
  const tab = search.tab ?? "dashboard";
  return (
    <Page title="Administration">
      <TwoFactorPanel />
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[11.5rem_minmax(0,1fr)] lg:items-start lg:gap-6">
        <AdminNav current={tab} />
        <SectionLabel value={SECTION_LABELS[tab]}>
          <div>{SECTIONS[tab](search)}</div>
        </SectionLabel>
      </div>
    </Page>
  );
}
