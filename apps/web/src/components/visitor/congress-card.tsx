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

function WebinarLink({ congress }: { congress: CongressView }) {
  const recordAttendance = useRecordAttendance();
  if (!congress.webinarUrl) {
    return <p className="text-sm text-slate-600">Der Link zum Webinar wird noch bekannt gegeben.</p>;
  }
  return (
    <Button asChild>
      <a
        href={congress.webinarUrl}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => {
          if (congress.inProgress) {
            recordAttendance({ congressId: congress.id, source: "webinar" });
          }
        }}
      >
        Zum Webinar <ExternalLinkIcon aria-hidden="true" className="size-4" />
        <span className="sr-only">(öffnet in einem neuen Fenster)</span>
      </a>
    </Button>
  );
}

/** The actions of one congress on the overview, per case of spec section 2. */
function CongressActions({
  congress,
  onCancel,
}: {
  congress: CongressView;
  onCancel: (congress: CongressView) => void;
}) {
  if (congress.inPast) {
    return <p className="text-sm text-slate-600">Diese Veranstaltung ist beendet.</p>;
  }
  if (!congress.currentUserParticipating) {
    return (
      <Button asChild>
        <Link to="/participation/$congressId" params={{ congressId: congress.id }}>
          Teilnehmen
        </Link>
      </Button>
    );
  }
  if (congress.inProgress) {
    return congress.webinar ? (
      <WebinarLink congress={congress} />
    ) : (
      <Button asChild>
        <Link to="/congress/$congressId" params={{ congressId: congress.id }}>
          <PlayCircleIcon aria-hidden="true" className="size-4" /> Zu den Videos
        </Link>
      </Button>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      {congress.webinar && <WebinarLink congress={congress} />}
      {congress.ticketed ? (
        <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-3 py-1 text-sm font-medium text-green-800">
          <CheckCircle2Icon aria-hidden="true" className="size-4" /> Ticket gekauft
        </span>
      ) : (
        <Button variant="secondary" onClick={() => onCancel(congress)}>
          Teilnahme stornieren
        </Button>
      )}
    </div>
  );
}

/**
 * Files of the congress: the calendar for participants of a coming or running congress, the confirmation once
 * attended.
 */
function CongressFiles({ congress, attended }: { congress: CongressView; attended: boolean }) {
  const calendar = congress.currentUserParticipating && !congress.inPast;
  if (!calendar && !attended) {
    return null;
  }
  return (
    <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-200 pt-3">
      {calendar && <CalendarButton congressId={congress.id} title={congress.title} />}
      {attended && <CertificateButton congressId={congress.id} title={congress.title} />}
    </div>
  );
}

export function CongressCard({
  congress,
  onCancel,
  attended = false,
}: {
  congress: CongressView;
  onCancel: (congress: CongressView) => void;
  /** the visitor's attendance is recorded for at least one day */
  attended?: boolean;
}) {
  return (
    <OverviewCard
      headingId={`congress-${congress.id}`}
      title={congress.title}
      picture={congress.picture}
      pictureClassName="h-32 w-full"
      description={congress.description}
      meta={
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
          <span className="inline-flex items-center gap-1">
            <CalendarDaysIcon aria-hidden="true" className="size-4" />
            {formatCongressDates(congress.firstDay, congress.lastDay)}
          </span>
          {congress.webinar && congress.webinarStartTime && (
            <span className="inline-flex items-center gap-1">
              <ClockIcon aria-hidden="true" className="size-4" /> {congress.webinarStartTime} Uhr
            </span>
          )}
          {congress.inProgress && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              läuft gerade
            </span>
          )}
        </p>
      }
      actions={
        <>
          <CongressActions congress={congress} onCancel={onCancel} />
          <CongressFiles congress={congress} attended={attended} />
        </>
      }
    />
  );
}
