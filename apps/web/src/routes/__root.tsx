import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, type ErrorComponentProps, Outlet } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { AlertHost } from "@/components/alert-host";
import { Footer } from "@/components/layout/footer";
import { Header } from "@/components/layout/header";
import { LazyRouteError } from "@/components/lazy-route-error";
import type { AuthContext } from "@/lib/auth";
import type { Trpc } from "@/lib/trpc";
import { NotFound } from "./-components/not-found";

export interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
  auth: AuthContext;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: RootError,
  notFoundComponent: NotFound,
});

function Shell({ children }: { children: ReactNode }) {
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
        {children}
      </main>
      <Footer />
      <AlertHost />
    </div>
  );
}

function RootLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** The root's own failure replaces its layout: the error page brings header and footer back. */
function RootError(props: ErrorComponentProps) {
  return (
    <Shell>
      <LazyRouteError {...props} />
    </Shell>
  );
}
