import { createFileRoute } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { SectionLabel } from "@/components/admin/admin-resource";
import { Page } from "@/components/layout/page";
import { ADMIN_TAB_VALUES, type AdminTab } from "@/lib/admin-tabs";
import { oneOf, optionalString } from "@/lib/search";
import { AdminNav, SECTION_LABELS } from "./-components/admin-nav";
import { AuditTab } from "./-components/audit-tab";
import { CongressesTab } from "./-components/congresses-tab";
import { ContentsTab } from "./-components/contents-tab";
import { DashboardTab } from "./-components/dashboard-tab";
import { KnowledgeTab } from "./-components/knowledge-tab";
import { LegalPagesTab } from "./-components/legal-pages-tab";
import { MailOutboxTab } from "./-components/mail-outbox-tab";
import { MailTemplatesTab } from "./-components/mail-templates-tab";
import { OrdersTab } from "./-components/orders-tab";
import { PackagesTab } from "./-components/packages-tab";
import { PaymentNotificationsTab } from "./-components/payment-notifications-tab";
import { TwoFactorPanel } from "./-components/two-factor/two-factor-panel";
import { UsersTab } from "./-components/users-tab";

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

export const Route = createFileRoute("/_admin/admin/manage")({
  validateSearch: (search: Record<string, unknown>): AdminSearch => ({
    tab: oneOf(search.tab, ADMIN_TAB_VALUES, "dashboard"),
    order: optionalString(search.order, 100),
  }),
  loaderDeps: ({ search }) => ({ tab: search.tab ?? "dashboard" }),
  // The two-factor notice and what the opened section shows first; the other sections load per page inside
  // themselves. Only `context` here: the loader stays in the route tree every first page loads.
  loader: ({ context: { queryClient, trpc }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(trpc.admin.twoFactor.getStatus.queryOptions()),
      deps.tab === "dashboard" && queryClient.ensureQueryData(trpc.admin.getDashboard.queryOptions()),
    ]),
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
