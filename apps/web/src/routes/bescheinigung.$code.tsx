import { formatGermanDate } from "@app/shared";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { CircleAlertIcon, CircleCheckIcon, CircleXIcon } from "lucide-react";
import { CertificateFacts } from "@/components/certificates/certificate-facts";
import { Page } from "@/components/layout/page";
import { type Trpc, trpc } from "@/lib/trpc";

const verifyQuery = (api: Trpc, code: string) =>
  api.certificate.verify.queryOptions({ code: code.slice(0, 200) }, { staleTime: 60_000, retry: false });

/**
 * `/bescheinigung/<code>` (ADR 0117, ADR 0130): public, no login. Says whether the certificate
 * behind the QR code is genuine and shows exactly what its PDF states; the server answers with noindex.
 */
export const Route = createFileRoute("/bescheinigung/$code")({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(verifyQuery(context.trpc, params.code)),
  component: Verification,
});

function Verification() {
  const { code } = Route.useParams();
  const { data } = useSuspenseQuery(verifyQuery(trpc, code));
  return (
    <>
      <meta name="robots" content="noindex, nofollow" />
      {data.status === "valid" && (
        <Page title="Echte Bescheinigung">
          <Verdict tone="good">
            Diese Teilnahmebescheinigung wurde über unsere Plattform ausgestellt und ist gültig. Vergleichen
            Sie die Angaben unten mit dem Dokument, das Ihnen vorliegt.
          </Verdict>
          <section className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <CertificateFacts certificate={data.certificate} />
          </section>
        </Page>
      )}
      {data.status === "revoked" && (
        <Page title="Bescheinigung widerrufen">
          <Verdict tone="bad">
            Diese Bescheinigung wurde am {formatGermanDate(data.revokedOn)} widerrufen
            {data.replaced ? " und durch eine neue Bescheinigung mit anderer Nummer ersetzt" : ""}. Sie ist
            nicht mehr gültig.
          </Verdict>
          <section
            aria-label="Angaben der widerrufenen Bescheinigung"
            className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-6 opacity-90"
          >
            <CertificateFacts certificate={data.certificate} />
          </section>
        </Page>
      )}
      {data.status === "unknown" && (
        <Page title="Keine gültige Bescheinigung">
          <Verdict tone="neutral">
            Zu dieser Adresse gibt es keine gültige Bescheinigung. Bitte prüfen Sie, ob die Adresse
            vollständig ist (sie endet mit einem 24-stelligen Code), oder scannen Sie den QR-Code auf der
            Bescheinigung erneut.
          </Verdict>
        </Page>
      )}
    </>
  );
}

const TONES = {
  good: { icon: CircleCheckIcon, box: "border-green-300 bg-green-50 text-green-900" },
  bad: { icon: CircleXIcon, box: "border-red-300 bg-red-50 text-red-900" },
  neutral: { icon: CircleAlertIcon, box: "border-amber-300 bg-amber-50 text-amber-950" },
} as const;

function Verdict({ tone, children }: { tone: keyof typeof TONES; children: React.ReactNode }) {
  const { icon: Icon, box } = TONES[tone];
  return (
    <div role="status" className={`flex max-w-3xl items-start gap-3 rounded-lg border p-4 ${box}`}>
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <p>{children}</p>
    </div>
  );
}
