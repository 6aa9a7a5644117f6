import {
  formatGermanDateTime,
  MAIL_STATUS_LABELS,
  type MailStatus,
  MSG_OUTBOX,
  type TMailOutboxListInput,
} from "@app/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable, LoadError, ServerPager } from "@/components/admin/admin-kit";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { alerts, showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";
import { FilterSelect } from "./audit-tab";

const statusOptions = Object.entries(MAIL_STATUS_LABELS).map(([value, label]) => ({ value, label }));
const STATUS_STYLE: Record<string, string> = {
  sent: "text-green-800",
  queued: "text-slate-700",
  failed: "font-semibold text-red-700",
};

/** The mail outbox: sent, queued and failed mails; failed ones can be sent again. */
export function MailOutboxTab() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState("");
  const [template, setTemplate] = useState("");
  const [page, setPage] = useState(1);
  const catalogue = useQuery(trpc.admin.mailTemplates.catalogue.queryOptions());
  const filter: TMailOutboxListInput = {
    page,
    ...(status && { status: status as MailStatus }),
    ...(template && { template }),
  };
  const list = useQuery({
    ...trpc.admin.mailOutbox.list.queryOptions(filter),
    placeholderData: keepPreviousData,
  });
  const resend = useMutation(trpc.admin.mailOutbox.resend.mutationOptions());

  if (list.isError) {
    return <LoadError what="Die E-Mails" onRetry={() => void list.refetch()} />;
  }
  const onResend = async (id: number) => {
    try {
      await resend.mutateAsync({ id });
      alerts.success(MSG_OUTBOX.resent);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.mailOutbox.pathKey() });
    } catch (error) {
      await showError(error);
    }
  };
  const templateOptions = (catalogue.data ?? []).map((m) => ({ value: m.name, label: m.description }));
  const data = list.data;
  return (
    <section aria-label="E-Mail-Versand">
      <p className="mb-3 text-sm text-slate-700">
        Empfänger:innen werden nur mit ihrer Domain angezeigt. Eine E-Mail gilt nach {data?.maxAttempts ?? 8}{" "}
        erfolglosen Versuchen als fehlgeschlagen und kann erneut gesendet werden.
      </p>
      <div className="mb-3 grid gap-3 sm:grid-cols-2">
        <FormField label="Status">
          <FilterSelect
            options={statusOptions}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
        <FormField label="E-Mail-Art">
          <FilterSelect
            options={templateOptions}
            value={template}
            onChange={(e) => {
              setTemplate(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
      </div>
      <DataTable
        label="E-Mail-Versand"
        loading={list.isPending}
        empty="Keine E-Mails gefunden."
        rows={data?.items ?? []}
        columns={[
          { header: "Empfänger:in", cell: (m) => m.recipient },
          {
            header: "E-Mail-Art",
            cell: (m) => (
              <>
                <span>{m.templateDescription}</span>
                <span className="block text-xs text-slate-600">{m.templateName}</span>
              </>
            ),
          },
          {
            header: "Status",
            cell: (m) => <span className={STATUS_STYLE[m.status]}>{m.statusLabel}</span>,
          },
          { header: "Versuche", cell: (m) => m.attempts },
          { header: "Letzter Fehler", cell: (m) => m.lastError ?? "–", className: "max-w-xs break-words" },
          {
            header: "Erstellt",
            cell: (m) => `${formatGermanDateTime(m.createdAt)} Uhr`,
            className: "whitespace-nowrap",
          },
          {
            header: "Versendet",
            cell: (m) => (m.sentAt ? `${formatGermanDateTime(m.sentAt)} Uhr` : "–"),
            className: "whitespace-nowrap",
          },
          {
            header: "Aktionen",
            cell: (m) =>
              m.status === "failed" ? (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={resend.isPending}
                  aria-label={`E-Mail an ${m.recipient} erneut senden`}
                  onClick={() => void onResend(m.id)}
                >
                  erneut senden
                </Button>
              ) : null,
          },
        ]}
      />
      {data && <ServerPager data={data} onPage={setPage} />}
    </section>
  );
}
