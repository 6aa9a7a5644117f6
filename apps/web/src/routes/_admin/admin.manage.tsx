import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { z } from "zod";
import { Page } from "@/components/layout/page";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ContentsTab } from "./-components/contents-tab";
import { EventsTab } from "./-components/events-tab";
import { KnowledgeTab } from "./-components/knowledge-tab";
import { MailTemplatesTab } from "./-components/mail-templates-tab";
import { OrdersTab } from "./-components/orders-tab";
import { PackagesTab } from "./-components/packages-tab";
import { UsersTab } from "./-components/users-tab";

const TABS = [
  { value: "events", label: "Veranstaltungen", content: <EventsTab /> },
  { value: "packages", label: "Kongresspakete", content: <PackagesTab /> },
  { value: "package-orders", label: "Paketbestellungen", content: <OrdersTab kind="package" /> },
  { value: "ticket-orders", label: "Ticketbestellungen", content: <OrdersTab kind="ticket" /> },
  { value: "users", label: "Benutzer:innen", content: <UsersTab /> },
  { value: "contents", label: "Videoinhalte", content: <ContentsTab /> },
  { value: "mail-templates", label: "E-Mail-Templates", content: <MailTemplatesTab /> },
  { value: "knowledge", label: "Wissensdatenbank", content: <KnowledgeTab /> },
] as const;
type TabValue = (typeof TABS)[number]["value"];

export const Route = createFileRoute("/_admin/admin/manage")({
  validateSearch: z.object({
    tab: z
      .enum(TABS.map((t) => t.value) as [TabValue, ...TabValue[]])
      .catch("events")
      .optional(),
  }),
  component: AdminManage,
});

function AdminManage() {
  const { tab = "events" } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <Page title="Administration">
      <Tabs
        value={tab}
        onValueChange={(value) => void navigate({ search: { tab: value as TabValue }, replace: true })}
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
