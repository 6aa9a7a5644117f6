import { formatGermanDate } from "@app/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { DownloadIcon, ShieldCheckIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { StatusText } from "@/components/ui/status-text";
import { base64ToBytes, saveFile } from "@/lib/download";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";
import { useDownload } from "./congress-files";

type Certificate = RouterOutputs["certificate"]["listMine"][number];

/**
 * "Meine Bescheinigungen" in the profile (ADR 0118): every Teilnahmebescheinigung of the participant
 * with its PDF and the public verification address its QR code carries.
 */
export function MyCertificates() {
  const certificates = useQuery(trpc.certificate.listMine.queryOptions());
  return (
    <Card aria-labelledby="certificates-title">
      <CardTitle id="certificates-title">Meine Bescheinigungen</CardTitle>
      {certificates.isPending && <p className="text-slate-700">Bescheinigungen werden geladen …</p>}
      {certificates.isError && (
        <p className="text-red-700" role="alert">
          Ihre Bescheinigungen konnten nicht geladen werden. Bitte laden Sie die Seite neu.
        </p>
      )}
      {certificates.data?.length === 0 && (
        <p className="text-slate-700">
          Noch keine Bescheinigungen. Nach dem letzten Tag einer Veranstaltung mit Fortbildungspunkten finden
          Sie hier Ihre Teilnahmebescheinigung, wenn Sie an mindestens einem Tag die Voraussetzung erfüllt
          haben; wir schicken sie Ihnen auch per E-Mail.
        </p>
      )}
      {certificates.data && certificates.data.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {certificates.data.map((certificate) => (
            <CertificateItem key={certificate.id} certificate={certificate} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function CertificateItem({ certificate }: { certificate: Certificate }) {
  const queryClient = useQueryClient();
  const { busy, run } = useDownload(async () => {
    const file = await queryClient.fetchQuery({
      ...trpc.certificate.getPdf.queryOptions({ id: certificate.id }),
      staleTime: 0,
    });
    saveFile(base64ToBytes(file.base64), "application/pdf", file.fileName);
  });
  const title = certificate.packageName
    ? `${certificate.congressTitle} – Aufzeichnung ${certificate.packageName}`
    : certificate.congressTitle;
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-medium text-slate-900">{title}</p>
        <p className="text-sm text-slate-700">
          Nr. {certificate.number} · {certificate.points.toLocaleString("de-DE")}{" "}
          {certificate.points === 1 ? "Punkt" : "Punkte"} · ausgestellt am{" "}
          {formatGermanDate(certificate.issuedOn)}
        </p>
        {certificate.revokedOn && (
          <StatusText tone="bad" className="text-sm">
            Widerrufen am {formatGermanDate(certificate.revokedOn)}
          </StatusText>
        )}
      </div>
      {certificate.verifyUrl && (
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" size="sm" onClick={run} disabled={busy}>
            <DownloadIcon aria-hidden="true" className="size-4" />
            {busy ? "Wird erstellt …" : "PDF herunterladen"}
            <span className="sr-only">: {title}</span>
          </Button>
          <a
            href={certificate.verifyUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 rounded text-sm text-brand-700 underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <ShieldCheckIcon aria-hidden="true" className="size-4" />
            Echtheit prüfen
            <span className="sr-only">: {title} (öffnet in einem neuen Tab)</span>
          </a>
        </div>
      )}
    </li>
  );
}
