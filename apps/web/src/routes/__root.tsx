import { MSG } from "@app/shared";
import type { QueryClient } from "@tanstack/react-query";
import { useQuery } from "@tanstack/react-query";
import { createRootRouteWithContext, Link, Outlet, useRouterState } from "@tanstack/react-router";
import { AlertHost } from "@/components/alert-host";
import { Footer } from "@/components/layout/footer";
import { Header } from "@/components/layout/header";
import { Page } from "@/components/layout/page";
import type { AuthContext } from "@/lib/auth";
import { type Trpc, trpc } from "@/lib/trpc";
import { GatedPage } from "./-components/gated-page";

export interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
  auth: AuthContext;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:left-2 focus:top-2"
      >
        Zum Inhalt springen
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <Footer />
      <AlertHost />
    </div>
  );
}

/** Unknown paths may be one of the password-gated pages, whose paths only the server knows. */
function NotFound() {
  // the path this page was rendered for: while the router leaves it (e.g. a gated page's redirect to
  // /login), `location` is already the next path, and asking the server about that one is a needless 404
  const pathname = useRouterState({ select: (s) => (s.resolvedLocation ?? s.location).pathname });
  const gated = useQuery({
    ...trpc.gated.resolve.queryOptions({ path: pathname }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (gated.isPending) {
    return null;
  }
  if (gated.data) {
    return <GatedPage path={pathname} kind={gated.data.kind} />;
  }
  return (
    <Page title={MSG.pageNotFoundTitle}>
      <p className="mb-4 text-slate-700">{MSG.pageNotFoundDetail}</p>
      <Link to="/" className="text-brand-700 underline underline-offset-4">
        Zur Startseite
      </Link>
    </Page>
  );
}
