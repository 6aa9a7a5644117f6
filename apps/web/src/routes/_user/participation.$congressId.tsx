import { formatCongressDates, MSG } from "@app/shared";
import type { QueryClient } from "@tanstack/react-query";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import { CheckCircle2Icon } from "lucide-react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { alerts, errorBody, errorReason, showError } from "@/lib/alerts";
import { actsOnVisit, loadOrOverview } from "@/lib/route-loaders";
import { idParams } from "@/lib/route-params";
import { type Trpc, trpc, trpcClient } from "@/lib/trpc";
import type { CongressView, RouterOutputs } from "@/lib/types";

const congressQuery = (api: Trpc, congressId: number) =>
  api.congress.get.queryOptions({ congressId }, { retry: false });

type CongressData = RouterOutputs["congress"]["get"];
type Outcome = "created" | "existing" | null;

/**
 * Signs the visitor up for a free event (spec: participation creation). Already signed up: the info
 * 'Sie nehmen bereits teil'; any other refusal: its dialog, then the overview.
 */
async function signUp(queryClient: QueryClient, api: Trpc, congress: CongressData): Promise<Outcome> {
  if (congress.currentUserParticipating) {
    alerts.info(MSG.alreadyParticipating);
    return "existing";
  }
  try {
    await trpcClient.participation.create.mutate({ congressId: congress.id });
  } catch (error) {
    if (errorReason(error) === "already") {
      alerts.info(MSG.alreadyParticipating);
      return "existing";
    }
    await alerts.error(errorBody(error));
    throw redirect({ to: "/" });
  }
  queryClient.setQueryData(congressQuery(api, congress.id).queryKey, {
    ...congress,
    currentUserParticipating: true,
  });
  void queryClient.invalidateQueries(api.congress.getOverview.queryFilter());
  return "created";
}

export const Route = createFileRoute("/_user/participation/$congressId")({
  params: idParams("congressId"),
  ...actsOnVisit,
  loader: async ({ context, params }): Promise<{ outcome: Outcome }> => {
    const { queryClient, trpc: api } = context;
    const congress = await loadOrOverview(
      false,
      () => queryClient.ensureQueryData(congressQuery(api, params.congressId)),
      showError,
    );
    // ticketed events are bought, not signed up for
    if (!congress || congress.ticketed) {
      return { outcome: null };
    }
    return { outcome: await signUp(queryClient, api, congress) };
  },
  pendingComponent: Loading,
  component: Participation,
});

function Loading() {
  return (
    <p role="status" className="text-slate-600">
      Ihre Anmeldung wird vorbereitet …
    </p>
  );
}

function TicketOffer({ congress }: { congress: CongressData }) {
  const params = { congressId: congress.id };
  return (
    <Card>
      <h2 className="text-xl font-semibold text-slate-900">{MSG.ticketRequiredTitle}</h2>
      <p className="mt-2 text-slate-700">{MSG.ticketRequired}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        {congress.digistoreIdTicket > 0 && (
          <Button asChild>
            <Link to="/congress-ticket-purchase/$congressId" params={params}>
              Ticket kaufen
            </Link>
          </Button>
        )}
        {/* without a package, ticket and package would sell the ticket alone under another name */}
        {congress.digistoreIdTicketAndPackage > 0 && congress.hasPackage && (
          <Button asChild variant="secondary">
            <Link to="/congress-ticket-package-purchase/$congressId" params={params}>
              Ticket und Kongresspaket kaufen
            </Link>
          </Button>
        )}
      </div>
    </Card>
  );
}

function Confirmation({ congress, fresh }: { congress: CongressView; fresh: boolean }) {
  return (
    <Card>
      <h2 className="flex items-center gap-2 text-xl font-semibold text-green-800">
        <CheckCircle2Icon aria-hidden="true" className="size-6" />
        {fresh ? MSG.participationCreatedTitle : MSG.alreadyParticipating}
      </h2>
      <p className="mt-2 text-slate-700">
        {fresh ? MSG.participationCreated : "Sie sind für diese Veranstaltung bereits angemeldet."}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {congress.inProgress && !congress.webinar && (
          <Button asChild>
            <Link to="/congress/$congressId" params={{ congressId: congress.id }}>
              Zu den Videos
            </Link>
          </Button>
        )}
        <Button asChild variant={congress.inProgress && !congress.webinar ? "secondary" : "default"}>
          <Link to="/">Zur Übersicht</Link>
        </Button>
      </div>
    </Card>
  );
}

function Participation() {
  const { congressId } = Route.useParams();
  const { outcome } = Route.useLoaderData();
  const { data } = useSuspenseQuery(congressQuery(trpc, congressId));
  return (
    <Page title={data.title} narrow>
      <p className="-mt-4 mb-6 text-slate-600">{formatCongressDates(data.firstDay, data.lastDay)}</p>
      {data.ticketed && !data.currentUserParticipating ? (
        <TicketOffer congress={data} />
      ) : (
        <Confirmation congress={data} fresh={outcome === "created"} />
      )}
    </Page>
  );
}
