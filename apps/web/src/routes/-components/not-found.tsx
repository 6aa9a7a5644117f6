import { MSG } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { Link, type NotFoundRouteProps, useRouterState } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { INVALID_PARAM } from "@/lib/route-params";
import { trpc } from "@/lib/trpc";

/** The 404 page (spec section 2: the searched page was not found), inside the layout. */
export function NotFoundPage() {
  return (
    <Page title={MSG.pageNotFoundTitle}>
      <p className="mb-2 text-slate-700">{MSG.pageNotFoundDetail}</p>
      <p className="mb-6 text-slate-700">
        Bitte prüfen Sie die Adresse oder wählen Sie eine Veranstaltung in der Übersicht.
      </p>
      <Button asChild variant="secondary">
        <Link to="/">Zurück zur Übersicht</Link>
      </Button>
    </Page>
  );
}

// the not-found page is part of the first page's file (the root route's); the two gated pages, with their
// form (react-hook-form), load when the server knows the path
const GatedPage = lazy(() => import("./gated-page").then((m) => ({ default: m.GatedPage })));

/** An unknown path may be one of the password-gated pages, whose paths only the server knows. */
function UnknownPath() {
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
    return (
      <Suspense fallback={null}>
        <GatedPage path={pathname} kind={gated.data.kind} />
      </Suspense>
    );
  }
  return <NotFoundPage />;
}

/**
 * The router's not-found page. A known route whose id is not a number (`/congress/abc`) is not a gated
 * page either: it is answered without any request.
 */
export function NotFound({ data }: NotFoundRouteProps) {
  return data === INVALID_PARAM ? <NotFoundPage /> : <UnknownPath />;
}
