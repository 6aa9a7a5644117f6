import type { AppRouter } from "@app/api/router";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { session } from "./auth";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
  },
});

const linkOptions = {
  url: "/trpc",
  transformer: superjson,
  async headers(): Promise<Record<string, string>> {
    const token = await session.getToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  },
};

/** The server refuses batches of more than 20 calls and account calls (`auth.*`) batched with others. */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.path.startsWith("auth."),
      true: httpLink(linkOptions),
      false: httpBatchLink({ ...linkOptions, maxItems: 20 }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
