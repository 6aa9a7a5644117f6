import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { LazyRouteError } from "./components/lazy-route-error";
import { followSignOutsOfOtherTabs, session } from "./lib/auth";
import { loginPage } from "./lib/guards";
import { queryClient, trpc } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";
import "./styles.css";

const router = createRouter({
  routeTree,
  context: { queryClient, trpc, auth: session },
  defaultPreload: "intent",
  // TanStack Query keeps the data: a visit after a hover runs the loader again, which answers from the cache
  // (and asks again after a failed preload, so the visit shows the failure)
  defaultPreloadStaleTime: 0,
  // the German error page inside the layout for every route without one of its own
  defaultErrorComponent: LazyRouteError,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

// "Abmelden" in another tab of the browser: this one forgets what it loaded and goes to login too
followSignOutsOfOtherTabs(() => {
  queryClient.clear();
  void router.navigate(loginPage());
});

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
