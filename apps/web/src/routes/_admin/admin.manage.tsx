import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ADMIN_TAB_VALUES, type AdminTab } from "@/lib/admin-tabs";
import { oneOf, optionalString } from "@/lib/search";
import { AuditTab } from "./-components/audit-tab";
import { ContentsTab } from "./-components/contents-tab";
import { DashboardTab } from "./-components/dashboard-tab";
import { EventsTab } from "./-components/events-tab";
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

const tabs = (search: AdminSearch): { value: AdminTab; label: string; content: React.ReactNode }[] => [
  { value: "dashboard", label: "Übersicht", content: <DashboardTab /> },
  { value: "events", label: "Veranstaltungen", content: <EventsTab /> },
  { value: "packages", label: "Kongresspakete", content: <PackagesTab /> },
  { value: "package-orders", label: "Paketbestellungen", content: <OrdersTab kind="package" /> },
  { value: "ticket-orders", label: "Ticketbestellungen", content: <OrdersTab kind="ticket" /> },
  { value: "users", label: "Benutzer:innen", content: <UsersTab /> },
  { value: "contents", label: "Videoinhalte", content: <ContentsTab /> },
  { value: "mail-templates", label: "E-Mail-Templates", content: <MailTemplatesTab /> },
  { value: "legal-pages", label: "Rechtliche Seiten", content: <LegalPagesTab /> },
  { value: "mail-outbox", label: "E-Mail-Versand", content: <MailOutboxTab /> },
  {
    value: "payment-notifications",
    label: "Zahlungsmeldungen",
    content: <PaymentNotificationsTab key={search.order} initialOrderNumber={search.order} />,
  },
  { value: "audit", label: "Protokoll", content: <AuditTab /> },
  { value: "knowledge", label: "Wissensdatenbank", content: <KnowledgeTab /> },
];

export const Route = createFileRoute("/_admin/admin/manage")({
  validateSearch: (search: Record<string, unknown>): AdminSearch => ({
    tab: oneOf(search.tab, ADMIN_TAB_VALUES, "dashboard"),
    order: optionalString(search.order, 100),
  }),
  component: AdminManage,
});

function AdminManage() {
  const search = Route.useSearch();
  const { tab = "dashboard" } = search;
  const TABS = tabs(search);
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <Page title="Administration">
      <TwoFactorPanel />
      <Tabs
        value={tab}
        onValueChange={(value) => void navigate({ search: { tab: value as AdminTab }, replace: true })}
      >
        <TabsList aria-label="Bereiche der Administration">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {t.content}
          </TabsContent>
        ))}
      </Tabs>
    </Page>
  );
}
