import { isAppPath, linkTarget, MSG } from "@app/shared";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Availability } from "@/components/visitor/availability";
import { FortbildungProgress, useMyFortbildung } from "@/components/visitor/fortbildung-progress";
import { LearningChecks } from "@/components/visitor/learning-check";
import { VideoDays } from "@/components/visitor/video-days";
import { alerts, errorBody } from "@/lib/alerts";
import { useRecordAttendance } from "@/lib/attendance";
import { loadOrOverview } from "@/lib/route-loaders";
import { idParams } from "@/lib/route-params";
import { type Trpc, trpc } from "@/lib/trpc";

const pageQuery = (api: Trpc, packageId: number) =>
  api.packages.getPage.queryOptions({ packageId }, { retry: false });

export const Route = createFileRoute("/_user/congress-package/$congressPackageId")({
  params: idParams("congressPackageId"),
  // spec section 8: a missing package or any other failure is 'Ein Fehler ist aufgetreten', then the
  // overview; a package not bought says 'Kongresspaket nicht erworben' on the page itself, with what to do,
  // and no dialog repeats it
  loader: ({ context, params, preload }) =>
    loadOrOverview(
      preload,
      () => context.queryClient.ensureQueryData(pageQuery(context.trpc, params.congressPackageId)),
      // the spec's title; the server's detail says what went wrong (a missing package: where to find the others)
      (error) => alerts.error({ title: MSG.defaultErrorTitle, detail: errorBody(error).detail }),
    ),
  pendingComponent: () => (
    <p role="status" className="text-slate-600">
      Das Kongresspaket wird geladen …
    </p>
  ),
  component: PackagePage,
});

function Crosssell({ description, link }: { description: string; link: string | null }) {
  // the form's rule (packages/shared links.ts), which the server applied already
  const target = linkTarget(link);
  return (
    <aside aria-label="Empfehlung" className="mt-12 rounded-lg border border-amber-200 bg-amber-50 p-5">
      <p className="text-slate-800">{description}</p>
      {target && (
        <Button asChild className="mt-3" variant="secondary">
          {isAppPath(target) ? (
            <a href={target}>Mehr erfahren</a>
          ) : (
            <a href={target} target="_blank" rel="noopener noreferrer">
              Mehr erfahren
              <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
            </a>
          )}
        </Button>
      )}
    </aside>
  );
}

function PackagePage() {
  const { congressPackageId } = Route.useParams();
  const recordAttendance = useRecordAttendance();
  const { data } = useSuspenseQuery(pageQuery(trpc, congressPackageId));
  const pkg = data.packageData;
  const { progress, watch } = useMyFortbildung({ congressId: pkg.congress.id, packageId: pkg.id });
  return (
    <Page title={pkg.name}>
      <p className="-mt-4 mb-6 text-slate-600">{pkg.congress.title}</p>
      {pkg.description && (
        <p className="mb-8 max-w-3xl whitespace-pre-line text-slate-700">{pkg.description}</p>
      )}
      {!data.isQualified ? (
        <Card className="max-w-xl">
          <h2 className="text-xl font-semibold text-slate-900">{MSG.packageNotBought}</h2>
          <p className="mt-2 text-slate-700">
            Sobald Sie das Kongresspaket erworben haben, finden Sie hier alle Videos.
          </p>
          <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2">
            <Button asChild>
              <Link to="/congress-package-purchase/$congressPackageId" params={{ congressPackageId }}>
                Jetzt kaufen
              </Link>
            </Button>
            {pkg.availableFrom && <Availability from={pkg.availableFrom} />}
          </div>
        </Card>
      ) : data.notice ? (
        <Card className="max-w-xl">
          <p className="text-slate-800">{data.notice}</p>
        </Card>
      ) : (
        <>
          {progress && <FortbildungProgress data={progress} />}
          <VideoDays
            days={pkg.contents}
            emptyText="Für dieses Kongresspaket sind noch keine Videos eingestellt."
            onPlay={() =>
              recordAttendance({ congressId: pkg.congress.id, packageId: pkg.id, source: "video" })
            }
            watch={watch}
          />
          <LearningChecks packageId={pkg.id} />
        </>
      )}
      {pkg.crosssell && <Crosssell description={pkg.crosssell.description} link={pkg.crosssell.link} />}
    </Page>
  );
}
