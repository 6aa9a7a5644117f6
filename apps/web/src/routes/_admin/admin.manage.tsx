import { createFileRoute, Outlet, useChildMatches } from "@tanstack/react-router";
import { SectionLabel } from "@/components/admin/admin-resource";
import { Page } from "@/components/layout/page";
import { trpc } from "@/lib/trpc";
import { AdminNav } from "./-components/admin-nav";
import { TwoFactorPanel } from "./-components/two-factor/two-factor-panel";

/**
 * The administration (spec: /admin/manage). Its sections are the child routes `admin.manage.*.tsx`, each with
 * its address, search parameters, loader and error page; the overview is the index. The navigation lists
 * them from the route tree (`staticData.adminSection`).
 */
export const Route = createFileRoute("/_admin/admin/manage")({
  // the two-factor notice above every section; each section's loader asks for what it shows first. The
  // loader goes to the chunk of the component (vite.config.ts), not into the route tree.
  loader: ({ context: { queryClient } }) =>
    queryClient.ensureQueryData(trpc.admin.twoFactor.getStatus.queryOptions()),
  component: AdminManage,
});

function AdminManage() {
  const section = useChildMatches({ select: (matches) => matches[0]?.staticData.adminSection });
  return (
    <Page title="Administration">
      <TwoFactorPanel />
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[11.5rem_minmax(0,1fr)] lg:items-start lg:gap-6">
        <AdminNav current={section?.label ?? ""} />
        <SectionLabel value={section?.label ?? ""}>
          <div>
            <Outlet />
          </div>
        </SectionLabel>
      </div>
    </Page>
  );
}
