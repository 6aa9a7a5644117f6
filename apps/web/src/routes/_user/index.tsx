import { MSG } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useDeferredValue, useEffect } from "react";
import superjson, { type SuperJSONResult } from "superjson";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { CongressCard } from "@/components/visitor/congress-card";
import { PackageCard } from "@/components/visitor/package-card";
import { alerts, showError } from "@/lib/alerts";
import { takeEarly } from "@/lib/boot";
import { optionalString } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { CongressView } from "@/lib/types";
import { CheckoutReturn } from "../-components/checkout-return";

export const Route = createFileRoute("/_user/")({
  validateSearch: (search: Record<string, unknown>): { custom?: string | undefined } => ({
    custom: optionalString(search.custom, 500),
  }),
  // The overview data public/boot.js fetched while the script loaded, if any (at most 2 s of waiting);
  // otherwise the query starts here (a hover on a link to the overview too) without being waited for: the
  // page shows its placeholders meanwhile, and on failure the spec's dialog with an inline retry.
  loader: async ({ context }) => {
    const early = await Promise.race([
      takeEarly("__overviewPrefetch") ?? null,
      new Promise<null>((done) => setTimeout(() => done(null), 2000)),
    ]);
    const overview = context.trpc.congress.getOverview.queryOptions();
    if (early) {
      context.queryClient.setQueryData(overview.queryKey, superjson.deserialize(early as SuperJSONResult));
    }
    void context.queryClient.prefetchQuery(overview);
  },
  component: Overview,
});

function CardSkeletons({ count }: { count: number }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="h-72 animate-pulse rounded-lg bg-slate-200" />
      ))}
    </div>
  );
}

function Overview() {
  const { custom } = Route.useSearch();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.congress.getOverview.queryOptions());
  // The cards render in the background, in slices that leave the main thread free between them (a phone
  // would otherwise be blocked for a few hundred ms while all of them render at once); until then, and
  // while a newer answer renders, the page shows what it had (at first the skeletons).
  // (React defers the first render only for an initial value other than undefined)
  const data = useDeferredValue(overview.data ?? null, null);
  const pending = data === null && !overview.isError;
  // attendance comes with the overview: the cards render once, with their confirmation buttons
  const attended = new Set(data?.attended);
  const cancel = useMutation(
    trpc.participation.cancel.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.congress.getOverview.queryKey() }),
    }),
  );
  const failed = overview.isError;
  useEffect(() => {
    if (failed) {
      void alerts.error({ title: MSG.congressesLoadFailed, detail: MSG.supportContact });
    }
  }, [failed]);

  const onCancel = async (congress: CongressView) => {
    if (congress.participationId === null) {
      return;
    }
    const confirmed = await alerts.confirm({
      title: MSG.participationCancelTitle,
      detail: `${MSG.participationCancelQuestion} (${congress.title})`,
      confirmLabel: "Teilnahme stornieren",
    });
    if (!confirmed) {
      return;
    }
    try {
      await cancel.mutateAsync({ participationId: congress.participationId });
      alerts.success(MSG.participationCancelled);
    } catch (error) {
      await showError(error);
    }
  };

  const user = overview.data?.user;
  return (
    <Page title={user ? `Hallo ${user.firstname} ${user.lastname}!` : "Übersicht"}>
      <CheckoutReturn custom={custom} />
      {failed && (
        <div role="alert" className="mb-8 rounded-lg border border-red-200 bg-red-50 p-5 text-red-900">
          <p className="font-semibold">{MSG.congressesLoadFailed}</p>
          <p className="mt-1">{MSG.supportContact}</p>
          <Button variant="secondary" className="mt-3" onClick={() => void overview.refetch()}>
            Erneut versuchen
          </Button>
        </div>
      )}
      <section aria-labelledby="congresses-heading" aria-busy={pending} className="mb-12">
        <h2 id="congresses-heading" className="mb-4 text-xl font-semibold text-slate-900">
          Aktuelle Veranstaltungen
        </h2>
        {pending && <CardSkeletons count={3} />}
        {data && data.congresses.length === 0 && (
          <p className="text-slate-700">
            Zurzeit sind keine Veranstaltungen geplant. Schauen Sie bald wieder vorbei!
          </p>
        )}
        {data && data.congresses.length > 0 && (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {data.congresses.map((congress) => (
              <CongressCard
                key={congress.id}
                congress={congress}
                onCancel={onCancel}
                attended={attended.has(congress.id)}
              />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="packages-heading" aria-busy={pending}>
        <h2 id="packages-heading" className="mb-4 text-xl font-semibold text-slate-900">
          Kongresspakete
        </h2>
        {pending && <CardSkeletons count={2} />}
        {data && data.packages.length === 0 && (
          <p className="text-slate-700">Zurzeit sind keine Kongresspakete verfügbar.</p>
        )}
        {data && data.packages.length > 0 && (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {data.packages.map((pkg) => (
              <PackageCard key={pkg.id} pkg={pkg} />
            ))}
          </div>
        )}
      </section>
    </Page>
  );
}
