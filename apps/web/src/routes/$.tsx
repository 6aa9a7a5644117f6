import { MSG } from "@app/shared";
import { createFileRoute, notFound, redirect } from "@tanstack/react-router";
import { alerts } from "@/lib/alerts";
import { loginPage } from "@/lib/guards";
import { actsOnVisit } from "@/lib/route-loaders";
import { GatedPage, gatedStatusQuery, resolveGated } from "./-components/gated-page";
import { NotFound } from "./-components/not-found";

/**
 * Every path no other route knows: one of the two password-gated package pages, whose paths only the server
 * knows (ADR 0019), or the not-found page. The loader decides, like every "dialog, then redirect" page
 * (ADR 0068): an anonymous visitor gets "Nicht angemeldet!" and, once it is closed, the login page that
 * comes back here; a visitor who has the package goes to it.
 */
export const Route = createFileRoute("/$")({
  ...actsOnVisit,
  loader: async ({ context, location }) => {
    const path = location.pathname;
    const gated = await resolveGated(context, path);
    if (!gated) {
      throw notFound();
    }
    if (!context.auth.getState().user) {
      await alerts.error({ title: MSG.notLoggedIn, detail: MSG.unauthorizedDetail });
      throw redirect({ ...loginPage(location.href), replace: true });
    }
    const status = await context.queryClient.ensureQueryData(gatedStatusQuery(context.trpc, path));
    if (status.unlocked) {
      throw redirect({
        to: "/congress-package/$congressPackageId",
        params: { congressPackageId: status.packageId },
        replace: true,
      });
    }
    return { path, kind: gated.kind };
  },
  // the dialog shows above it (without a pending component the whole layout waits, its alerts included)
  pendingComponent: Waiting,
  component: Gated,
  notFoundComponent: NotFound,
});

function Waiting() {
  return (
    <p role="status" className="text-slate-600">
      Einen Moment bitte …
    </p>
  );
}

function Gated() {
  const page = Route.useLoaderData();
  return page ? <GatedPage path={page.path} kind={page.kind} /> : null;
}
