import type { AppRouter } from "@app/api/router";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import {
  createTRPCClient,
  httpBatchLink,
  isNonJsonSerializable,
  splitLink,
  TRPCClientError,
  type TRPCLink,
} from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { isUnauthorized } from "./alerts";
import { session } from "./auth";

/** the token the last renewal after a 401 brought: a 401 with it again means the session is gone */
let renewedToken: string | null = null;

/**
 * A signed-in call answered 401: the session may have ended elsewhere (a password reset, two-factor login
 * switched, the account switched off). One shared refresh either brings a valid token (the queries run
 * again) or signs the browser out, so the page shows the logged-out state instead of repeated errors.
 */
function onUnauthorized(error: unknown): void {
  const token = session.getState().token;
  if (!(isUnauthorized(error) && token)) {
    return;
  }
  if (token === renewedToken) {
    session.signOut();
    return;
  }
  void session.restore().then(async (renewed) => {
    renewedToken = renewed;
    if (renewed) {
      await queryClient.invalidateQueries();
    }
  });
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onUnauthorized }),
  mutationCache: new MutationCache({ onError: onUnauthorized }),
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

/**
 * Calls with form data (picture uploads, admins only) go through `uploadLink` (upload-link.ts), loaded on
 * their first use, so no visitor's page carries it: one call per request, sent with XHR for its progress.
 */
const formDataLink: TRPCLink<AppRouter> =
  (runtime) =>
  ({ op, next }) =>
    observable((observer) => {
      let subscription: { unsubscribe(): void } | undefined;
      let ended = false;
      import("./upload-link").then(
        ({ uploadLink }) => {
          if (!ended) {
            subscription = uploadLink(linkOptions)(runtime)({ op, next }).subscribe(observer);
          }
        },
        (error: unknown) => observer.error(TRPCClientError.from(error as Error)),
      );
      return () => {
        ended = true;
        subscription?.unsubscribe();
      };
    });

/**
 * The server refuses batches of more than 20 calls and account calls (`auth.*`) batched with others. A call
 * with `context: { keepalive: true }` (the last heartbeat of a video as the page goes) is sent on its own
 * as a `keepalive` request, which the browser completes after the page is gone.
 */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => isNonJsonSerializable(op.input),
      true: formDataLink,
      false: splitLink({
        condition: (op) => op.context.keepalive === true,
        true: httpBatchLink({
          ...linkOptions,
          maxItems: 1,
          fetch: (url, init) => fetch(url, { ...init, keepalive: true }),
        }),
        false: splitLink({
          condition: (op) => op.path.startsWith("auth."),
          // one call per request (a batch of one), with the link the app loads anyway
          true: httpBatchLink({ ...linkOptions, maxItems: 1 }),
          false: httpBatchLink({ ...linkOptions, maxItems: 20 }),
        }),
      }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
