import {
  formatCongressDates,
  formatGermanDate,
  formatGermanDateTime,
  ZCertificateIssuerInput,
  ZCertificateRevokeInput,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useState } from "react";
import { AdminResource } from "@/components/admin/admin-resource";
import { FilterSelect, useFilters } from "@/components/admin/filters";
import { LoadError } from "@/components/admin/load-error";
import { PictureField } from "@/components/admin/picture-field";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { optionsOf } from "@/components/ui/select";
import { StatusText } from "@/components/ui/status-text";
import { TextField } from "@/components/ui/text-field";
import { useDownload } from "@/components/visitor/congress-files";
import { alerts, errorBody } from "@/lib/alerts";
import { base64ToBytes, saveFile } from "@/lib/download";
import { useSchemaForm } from "@/lib/schema-form";
import { filterChoice, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type Row = RouterOutputs["admin"]["certificates"]["list"]["items"][number];
type Issuer = RouterOutputs["admin"]["certificates"]["getIssuer"];

const CERTIFICATE_FILTERS = { congress: "" };

export const Route = createFileRoute("/_admin/admin/manage/certificates")({
  staticData: {
    adminSection: {
      label: "Bescheinigungen",
      group: "Veranstaltungen & Inhalte",
      position: 3.7,
      what: "Die Bescheinigungen",
    },
  },
  validateSearch: (search: Record<string, unknown>): SectionSearch<keyof typeof CERTIFICATE_FILTERS> => ({
    congress: filterChoice(search.congress),
    page: pageNumber(search.page),
  }),
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.ensureQueryData(trpc.admin.certificates.getIssuer.queryOptions()),
      queryClient.ensureQueryData(trpc.admin.congresses.list.queryOptions()),
    ]),
  component: CertificatesTab,
  errorComponent: LazySectionError,
});

/**
 * "Bescheinigungen" (ADR 0118): who the certificates name as organiser, and per Fortbildung event the
 * certificates issued, with revoke (reason required, audited) and re-issue after a correction.
 */
function CertificatesTab() {
  return (
    <div className="flex flex-col gap-6">
      <IssuerSettings />
      <CertificateList />
    </div>
  );
}

function IssuerSettings() {
  const issuer = useQuery(trpc.admin.certificates.getIssuer.queryOptions());
  if (issuer.isError) {
    return <LoadError what="Der Aussteller" onRetry={() => void issuer.refetch()} />;
  }
  if (!issuer.data) {
    return <p role="status">Aussteller wird geladen …</p>;
  }
  return <IssuerForm issuer={issuer.data} />;
}

function IssuerForm({ issuer }: { issuer: Issuer }) {
  const queryClient = useQueryClient();
  const save = useMutation(trpc.admin.certificates.saveIssuer.mutationOptions());
  const form = useSchemaForm({
    schema: ZCertificateIssuerInput,
    defaultValues: {
      name: issuer.name,
      address: issuer.address,
      signatory: issuer.signatory,
      logo: issuer.logo,
      signature: issuer.signature,
    },
  });
  const onSubmit = form.submit(async (input) => {
    const saved = await save.mutateAsync(input);
    queryClient.setQueryData(trpc.admin.certificates.getIssuer.queryKey(), saved);
    form.reset(saved);
    alerts.success("Der Aussteller ist gespeichert. Neue Bescheinigungen nennen ihn so.");
  });
  return (
    <Card aria-labelledby="issuer-title" className="p-4 sm:p-6">
      <CardTitle id="issuer-title">Aussteller</CardTitle>
      {!issuer.name && (
        <p role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          Solange kein Aussteller gespeichert ist, werden keine Bescheinigungen ausgestellt.
        </p>
      )}
      <p className="mb-4 text-sm text-slate-700">
        So steht der Veranstalter auf jeder neuen Teilnahmebescheinigung. Bereits ausgestellte Bescheinigungen
        behalten die Angaben ihres Ausstellungstags.
      </p>
      <form onSubmit={(event) => void onSubmit(event)} className="grid gap-4 md:grid-cols-2" noValidate>
        <div className="flex flex-col gap-4">
          <TextField form={form} name="name" label="Name des Veranstalters" />
          <TextField form={form} name="address" label="Anschrift" hint="Eine Zeile je Zeile" multiline />
          <TextField
            form={form}
            name="signatory"
            label="Unterzeichnende Person"
            hint="z. B. Dr. Maria Muster, Leitung"
          />
        </div>
        <div className="flex flex-col gap-4">
          <PictureField control={form.control} name="logo" label="Logo" />
          <PictureField control={form.control} name="signature" label="Unterschrift" />
        </div>
        <div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Wird gespeichert …" : "Aussteller speichern"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function CertificateList() {
  const filters = useFilters(CERTIFICATE_FILTERS);
  const events = useQuery(trpc.admin.congresses.list.queryOptions());
  const fortbildung = (events.data ?? []).filter((e) => e.fortbildung);
  const chosen = /^[1-9]\d{0,8}$/.test(filters.applied.congress) ? Number(filters.applied.congress) : null;
  // none chosen: the latest Fortbildung event (the list comes newest first)
  const congressId =
    chosen ?? [...fortbildung].sort((a, b) => (a.firstDay < b.firstDay ? 1 : -1))[0]?.id ?? null;
  const [revoking, setRevoking] = useState<Row | null>(null);
  const reissue = useMutation(trpc.admin.certificates.reissue.mutationOptions());
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries(trpc.admin.certificates.list.pathFilter());
  const onReissue = async (row: Row) => {
    const confirmed = await alerts.confirm({
      title: "Bescheinigung neu ausstellen?",
      detail: `Die Bescheinigung ${row.number} wird widerrufen und durch eine neue mit den heutigen Angaben (Name, EFN, Teilnahme) ersetzt. Die neue wird per E-Mail verschickt.`,
      confirmLabel: "Neu ausstellen",
    });
    if (!confirmed) {
      return;
    }
    try {
      const made = await reissue.mutateAsync({ id: row.id });
      await refresh();
      alerts.success(`Neu ausgestellt als ${made.number}.`);
    } catch (error) {
      await alerts.error(errorBody(error));
    }
  };
  return (
    <>
      {congressId === null ? (
        <p className="text-slate-700">
          Noch keine Veranstaltung mit Fortbildungspunkten. Schalten Sie „Fortbildungspunkte vergeben“ im
          Bereich Veranstaltungen ein.
        </p>
      ) : (
        <AdminResource<Row>
          items="Bescheinigungen"
          intro="Nach dem letzten Tag einer Veranstaltung mit Fortbildungspunkten erhält jede Person, die an mindestens einem Tag die Voraussetzung erfüllt hat, ihre Bescheinigung (stündlich; per E-Mail und im Profil)."
          list={(page) => trpc.admin.certificates.list.queryOptions({ congressId, page })}
          paging={filters}
          empty="Für diese Veranstaltung wurden noch keine Bescheinigungen ausgestellt."
          toolbar={
            <div className="grid w-full gap-3 sm:grid-cols-2">
              <FilterSelect
                filters={filters}
                name="congress"
                label="Veranstaltung"
                options={optionsOf(
                  fortbildung,
                  (e) => `${e.title} (${formatCongressDates(e.firstDay, e.lastDay)})`,
                )}
                placeholder="Zuletzt begonnene"
              />
            </div>
          }
          columns={[
            { header: "Nummer", cell: (r) => r.number },
            {
              header: "Name",
              cell: (r) => (
                <>
                  {r.name}
                  <span className="block text-xs break-all text-slate-600">{r.email}</span>
                  {r.packageName && (
                    <span className="block text-xs text-slate-600">Aufzeichnung {r.packageName}</span>
                  )}
                </>
              ),
            },
            { header: "EFN", cell: (r) => r.efn ?? "—" },
            { header: "Punkte", cell: (r) => r.points, className: "text-right" },
            {
              header: "Ausgestellt",
              cell: (r) => (
                <>
                  {formatGermanDate(new Date(r.issuedAt))}
                  <span className="block text-xs text-slate-600">
                    {r.mailedAt
                      ? `verschickt ${formatGermanDateTime(new Date(r.mailedAt))}`
                      : "noch nicht verschickt"}
                  </span>
                </>
              ),
            },
            {
              header: "Status",
              cell: (r) =>
                r.revokedAt ? (
                  <StatusText tone="bad">
                    Widerrufen am {formatGermanDate(new Date(r.revokedAt))}
                    {r.revokedReason && (
                      <span className="block text-xs font-normal">Grund: {r.revokedReason}</span>
                    )}
                  </StatusText>
                ) : (
                  <StatusText tone="good">Gültig</StatusText>
                ),
            },
            {
              header: "Aktionen",
              cell: (r) => (
                <div className="flex flex-wrap gap-1">
                  <PdfButton row={r} />
                  {!r.revokedAt && (
                    <Button variant="ghost" size="sm" onClick={() => setRevoking(r)}>
                      Widerrufen<span className="sr-only">: {r.number}</span>
                    </Button>
                  )}
                  {r.replacedBy === null && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => void onReissue(r)}
                      disabled={reissue.isPending}
                    >
                      Neu ausstellen<span className="sr-only">: {r.number}</span>
                    </Button>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
      {revoking && <RevokeDialog row={revoking} onClose={() => setRevoking(null)} onDone={refresh} />}
    </>
  );
}

function PdfButton({ row }: { row: Row }) {
  const queryClient = useQueryClient();
  const { busy, run } = useDownload(async () => {
    const file = await queryClient.fetchQuery({
      ...trpc.admin.certificates.getPdf.queryOptions({ id: row.id }),
      staleTime: 0,
    });
    saveFile(base64ToBytes(file.base64), "application/pdf", file.fileName);
  });
  return (
    <Button variant="ghost" size="sm" onClick={run} disabled={busy}>
      PDF<span className="sr-only">: {row.number}</span>
    </Button>
  );
}

/** "Widerrufen" asks for the reason (kept for the admins and the audit log, never shown publicly). */
function RevokeDialog({
  row,
  onClose,
  onDone,
}: {
  row: Row;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const revoke = useMutation(trpc.admin.certificates.revoke.mutationOptions());
  const form = useSchemaForm({
    schema: ZCertificateRevokeInput,
    defaultValues: { reason: "" },
    toInput: (values) => ({ id: row.id, ...values }),
  });
  const onSubmit = form.submit(async (input) => {
    await revoke.mutateAsync(input);
    await onDone();
    onClose();
    alerts.success(`Die Bescheinigung ${row.number} ist widerrufen.`);
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>Bescheinigung {row.number} widerrufen?</DialogTitle>
        <DialogDescription>
          Die Prüfseite meldet sie danach als widerrufen; {row.name} kann sie nicht mehr herunterladen. Der
          Grund bleibt intern und steht im Protokoll.
        </DialogDescription>
        <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
          <TextField form={form} name="reason" label="Grund des Widerrufs" multiline />
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" variant="destructive" disabled={revoke.isPending}>
              {revoke.isPending ? "Wird widerrufen …" : "Widerrufen"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
