import { formatCongressDates } from "@app/shared";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { EfnPrompt } from "@/components/visitor/efn-form";
import {
  FortbildungProgress,
  myFortbildungQuery,
  useMyFortbildung,
} from "@/components/visitor/fortbildung-progress";
import { VideoDays } from "@/components/visitor/video-days";
import { alerts, errorBody, errorReason } from "@/lib/alerts";
import { useRecordAttendance } from "@/lib/attendance";
import { loadOrOverview } from "@/lib/route-loaders";
import { idParams } from "@/lib/route-params";
import { type Trpc, trpc } from "@/lib/trpc";

const contentQuery = (api: Trpc, congressId: number) =>
  api.congress.getContent.queryOptions({ congressId }, { retry: false });

/** The server runs the access checks of spec section 2 in order; the page shows their outcome. */
function refused(error: unknown): Promise<unknown> {
  const body = errorBody(error);
  // past: an info dialog; hidden (answered as unknown: "Kongress nicht gefunden"), not started, not
  // participating: an error dialog; then the overview
  return errorReason(error) === "past" ? alerts.notice(body.title, body.detail) : alerts.error(body);
}

export const Route = createFileRoute("/_user/congress/$congressId")({
  params: idParams("congressId"),
  loader: ({ context, params, preload }) =>
    loadOrOverview(
      preload,
      async () => {
        const content = await context.queryClient.ensureQueryData(
          contentQuery(context.trpc, params.congressId),
        );
        // the participant's Fortbildung line, once the page is theirs to see: a refused visit asks nothing
        // more, and the content's refusal is not hidden in a batch with another answer
        void context.queryClient.prefetchQuery(myFortbildungQuery(context.trpc, params.congressId));
        return content;
      },
      refused,
    ),
  pendingComponent: () => (
    <p role="status" className="text-slate-600">
      Die Videos werden geladen …
    </p>
  ),
  component: CongressContent,
});

function CongressContent() {
  const { congressId } = Route.useParams();
  const recordAttendance = useRecordAttendance();
  const { data } = useSuspenseQuery(contentQuery(trpc, congressId));
  const { progress, watch } = useMyFortbildung({ congressId: data.congress.id });
  return (
    <Page title={data.congress.title}>
      <p className="-mt-4 mb-8 text-slate-600">
        {formatCongressDates(data.congress.firstDay, data.congress.lastDay)}
      </p>
      {progress && <FortbildungProgress data={progress} />}
      {progress && <EfnPrompt />}
      <VideoDays
        days={data.days}
        emptyText="Für diese Veranstaltung sind noch keine Videos freigeschaltet."
        onPlay={() => recordAttendance({ congressId: data.congress.id, source: "video" })}
        watch={watch}
      />
    </Page>
  );
}
