import { formatEventDates } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { Page } from "@/components/layout/page";
import { VideoDays } from "@/components/visitor/video-days";
import { alerts, errorBody, errorReason } from "@/lib/alerts";
import { useRecordAttendance } from "@/lib/attendance";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/_user/congress/$congressId")({ component: CongressContent });

function CongressContent() {
  const { congressId } = Route.useParams();
  const navigate = useNavigate();
  const recordAttendance = useRecordAttendance();
  const content = useQuery({
    ...trpc.congress.content.queryOptions({ congressId: Number(congressId) }),
    retry: false,
  });

  useEffect(() => {
    if (!content.isError) {
      return;
    }
    // the server ran the access checks; the page only shows their outcome and goes back to the overview
    const reason = errorReason(content.error);
    const body = errorBody(content.error);
    const toOverview = () => navigate({ to: "/" });
    // a hidden event is answered as an unknown one (404 "Kongress nicht gefunden"): both show the alert
    if (reason === "past") {
      void alerts.notice(body.title, body.detail).then(toOverview);
    } else {
      void alerts.error(body).then(toOverview);
    }
  }, [content.isError, content.error, navigate]);

  const data = content.data;
  if (!data) {
    return (
      <p role="status" className="text-slate-600">
        {content.isError ? "" : "Die Videos werden geladen …"}
      </p>
    );
  }
  return (
    <Page title={data.congress.title}>
      <p className="-mt-4 mb-8 text-slate-600">
        {formatEventDates(data.congress.firstDay, data.congress.lastDay)}
      </p>
      <VideoDays
        days={data.days}
        emptyText="Für diese Veranstaltung sind noch keine Videos freigeschaltet."
        onPlay={() => recordAttendance({ congressId: data.congress.id, source: "video" })}
      />
    </Page>
  );
}
