import type { Role } from "@app/shared";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRouter, RouterProvider } from "@tanstack/react-router";
import { render } from "vitest-browser-react";
import { session } from "@/lib/auth";
import type { SessionUser } from "@/lib/session/session-manager";
import { queryClient, trpc } from "@/lib/trpc";
import { routeTree } from "@/routeTree.gen";

/** Who opens the page: nobody, a participant or an admin. */
export type Visitor = "anonymous" | "participant" | "admin";

const ROLES: Record<Exclude<Visitor, "anonymous">, Role[]> = {
  participant: ["ROLE_USER"],
  admin: ["ROLE_USER", "ROLE_ADMIN"],
};

const testUser = (roles: Role[]): SessionUser => ({
  id: 1,
  email: "erika.mustermann@example.com",
  firstname: "Erika",
  lastname: "Mustermann",
  roles,
  newsletter: false,
});

/** Puts what the page asks the API for into the query cache. */
export type Fill = (api: typeof trpc, client: typeof queryClient) => void;

/**
 * Renders the whole app at `path` (its routes, layout and alert host) without a server: the session is set
 * in memory and what the page asks the API for is in the query cache (`fill`, with the tRPC query keys,
 * e.g. `client.setQueryData(trpc.x.queryKey(input), data)`). A query left out fails the test (test/setup.ts).
 */
export async function renderApp(
  path: string,
  { as = "anonymous", fill }: { as?: Visitor; fill?: Fill } = {},
) {
  if (as !== "anonymous") {
    session.signIn({ token: "component-test", expiresAt: Date.now() + 3_600_000, user: testUser(ROLES[as]) });
  }
  fill?.(trpc, queryClient);
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient, trpc, auth: session },
  });
  await render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
