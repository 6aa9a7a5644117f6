import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, lazyRouteComponent, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { session } from "./lib/auth";
import { queryClient, trpc } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";
import "./styles.css";

const router = createRouter({
  routeTree,
  context: { queryClient, trpc, auth: session },
  defaultPreload: "intent",
  // loaded only when a page fails: the login route's first load stays small
  defaultErrorComponent: lazyRouteComponent(() => import("./components/route-error"), "RouteError"),
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

// Restore the session from the refresh cookie before the first route guard runs.
await session.restore();

const root = document.getElementById("app");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
