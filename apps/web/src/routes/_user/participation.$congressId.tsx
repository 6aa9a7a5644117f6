import { formatEventDates, MSG } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { CheckCircle2Icon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { alerts, errorBody, errorReason, showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";
import type { EventView } from "@/lib/types";

export const Route = createFileRoute("/_user/participation/$congressId")({ component: Participation });

function Loading() {
  return (
    <p role="status" className="text-slate-600">
      Ihre Anmeldung wird vorbereitet …
    </p>
  );
}

function TicketOffer({ event }: { event: EventView }) {
  const params = { congressId: String(event.id) };
  return (
    <Card>
      <h2 className="text-xl font-semibold text-slate-900">{MSG.ticketRequiredTitle}</h2>
      <p className="mt-2 text-slate-700">{MSG.ticketRequired}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        {event.digistoreIdTicket > 0 && (
          <Button asChild>
            <Link to="/congress-ticket-purchase/$congressId" params={params}>
              Ticket kaufen
            </Link>
          </Button>
        )}
        {event.digistoreIdTicketAndPackage > 0 && (
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

function Confirmation({ event, fresh }: { event: EventView; fresh: boolean }) {
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
        {event.inProgress && !event.webinar && (
          <Button asChild>
            <Link to="/congress/$congressId" params={{ congressId: String(event.id) }}>
              Zu den Videos
            </Link>
          </Button>
        )}
        <Button asChild variant={event.inProgress && !event.webinar ? "secondary" : "default"}>
          <Link to="/">Zur Übersicht</Link>
        </Button>
      </div>
    </Card>
  );
}

function Participation() {
  const { congressId } = Route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(congressId);
  const event = useQuery({ ...trpc.congress.get.queryOptions({ congressId: id }), retry: false });
  const create = useMutation(trpc.participation.create.mutationOptions());
  const [outcome, setOutcome] = useState<"created" | "existing" | null>(null);
  const started = useRef(false);

  const data = event.data;
  useEffect(() => {
    if (event.isError) {
      void showError(event.error).then(() => navigate({ to: "/" }));
    }
  }, [event.isError, event.error, navigate]);

  useEffect(() => {
    if (!data || started.current || data.ticketed) {
      return;
    }
    started.current = true;
    if (data.currentUserParticipating) {
      setOutcome("existing");
      alerts.info(MSG.alreadyParticipating);
      return;
    }
    create.mutate(
      { congressId: data.id },
      {
        onSuccess: () => {
          setOutcome("created");
          void queryClient.invalidateQueries({ queryKey: trpc.congress.overview.queryKey() });
        },
        onError: (error) => {
          if (errorReason(error) === "already") {
            setOutcome("existing");
            alerts.info(MSG.alreadyParticipating);
            return;
          }
          void alerts.error(errorBody(error)).then(() => navigate({ to: "/" }));
        },
      },
    );
  }, [data, create, navigate, queryClient]);

  return (
    <Page title={data ? data.title : "Anmeldung"} narrow>
      {data && <p className="-mt-4 mb-6 text-slate-600">{formatEventDates(data.firstDay, data.lastDay)}</p>}
      {!data || (!data.ticketed && outcome === null) ? (
        <Loading />
      ) : data.ticketed && !data.currentUserParticipating ? (
        <TicketOffer event={data} />
      ) : (
        <Confirmation event={data} fresh={outcome === "created"} />
      )}
    </Page>
  );
}
