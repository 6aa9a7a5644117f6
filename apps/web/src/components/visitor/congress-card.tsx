import { formatCongressDates } from "@app/shared";
import { Link } from "@tanstack/react-router";
import {
  CalendarDaysIcon,
  CheckCircle2Icon,
  ClockIcon,
  ExternalLinkIcon,
  PlayCircleIcon,
} from "lucide-react";
import { Button } from "@/components/ui/button";
import { useRecordAttendance } from "@/lib/attendance";
import type { CongressView } from "@/lib/types";
import { CalendarButton, CertificateButton } from "./congress-files";
import { OverviewCard } from "./overview-card";

function WebinarLink({ event }: { event: CongressView }) {
  const recordAttendance = useRecordAttendance();
  if (!event.webinarUrl) {
    return <p className="text-sm text-slate-600">Der Link zum Webinar wird noch bekannt gegeben.</p>;
  }
  return (
    <Button asChild>
      <a
        href={event.webinarUrl}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => {
          if (event.inProgress) {
            recordAttendance({ congressId: event.id, source: "webinar" });
          }
        }}
      >
        Zum Webinar <ExternalLinkIcon aria-hidden="true" className="size-4" />
        <span className="sr-only">(öffnet in einem neuen Fenster)</span>
      </a>
    </Button>
  );
}

/** The actions of one event on the overview, per case of spec section 2. */
function CongressActions({
  event,
  onCancel,
}: {
  event: CongressView;
  onCancel: (event: CongressView) => void;
}) {
  if (event.inPast) {
    return <p className="text-sm text-slate-600">Diese Veranstaltung ist beendet.</p>;
  }
  if (!event.currentUserParticipating) {
    return (
      <Button asChild>
        <Link to="/participation/$congressId" params={{ congressId: event.id }}>
          Teilnehmen
        </Link>
      </Button>
    );
  }
  if (event.inProgress) {
    return event.webinar ? (
      <WebinarLink event={event} />
    ) : (
      <Button asChild>
        <Link to="/congress/$congressId" params={{ congressId: event.id }}>
          <PlayCircleIcon aria-hidden="true" className="size-4" /> Zu den Videos
        </Link>
      </Button>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      {event.webinar && <WebinarLink event={event} />}
      {event.ticketed ? (
        <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-3 py-1 text-sm font-medium text-green-800">
          <CheckCircle2Icon aria-hidden="true" className="size-4" /> Ticket gekauft
        </span>
      ) : (
        <Button variant="secondary" onClick={() => onCancel(event)}>
          Teilnahme stornieren
        </Button>
      )}
    </div>
  );
}

/** Files of the event: the calendar for participants of a coming or running event, the confirmation once attended. */
function CongressFiles({ event, attended }: { event: CongressView; attended: boolean }) {
  const calendar = event.currentUserParticipating && !event.inPast;
  if (!calendar && !attended) {
    return null;
  }
  return (
    <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-200 pt-3">
      {calendar && <CalendarButton congressId={event.id} title={event.title} />}
      {attended && <CertificateButton congressId={event.id} title={event.title} />}
    </div>
  );
}

export function CongressCard({
  event,
  onCancel,
  attended = false,
}: {
  event: CongressView;
  onCancel: (event: CongressView) => void;
  /** the visitor's attendance is recorded for at least one day */
  attended?: boolean;
}) {
  return (
    <OverviewCard
      headingId={`event-${event.id}`}
      title={event.title}
      picture={event.picture}
      pictureClassName="h-32 w-full"
      description={event.description}
      meta={
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
          <span className="inline-flex items-center gap-1">
            <CalendarDaysIcon aria-hidden="true" className="size-4" />
            {formatCongressDates(event.firstDay, event.lastDay)}
          </span>
          {event.webinar && event.webinarStartTime && (
            <span className="inline-flex items-center gap-1">
              <ClockIcon aria-hidden="true" className="size-4" /> {event.webinarStartTime} Uhr
            </span>
          )}
          {event.inProgress && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              läuft gerade
            </span>
          )}
        </p>
      }
      actions={
        <>
          <CongressActions event={event} onCancel={onCancel} />
          <CongressFiles event={event} attended={attended} />
        </>
      }
    />
  );
}
