import {
  MAIL_STATUS_LABELS,
  MAIL_STATUSES,
  type MailStatus,
  MSG_OUTBOX,
  type TMailOutboxListInput,
} from "@app/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { AdminResource } from "@/components/admin/admin-resource";
import { timeColumn } from "@/components/admin/columns";
import { fromSearch, useFilterBar } from "@/components/admin/filters";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { optionsOfLabels } from "@/components/ui/select";
import { StatusText, type StatusTone } from "@/components/ui/status-text";
import { alerts, showError } from "@/lib/alerts";
import { filterChoice, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type OutboxMail = RouterOutputs["admin"]["mailOutbox"]["list"]["items"][number];

const STATUS_TONE: Record<string, StatusTone> = { sent: "good", queued: "neutral", failed: "bad" };

const OUTBOX_FILTERS = { status: "", template: "" };

const isStatus = (value: string): value is MailStatus => MAIL_STATUSES.some((s) => s === value);

/**
 * A page of the outbox as filtered (the section's loader asks for the one its address names); a status that
 * is none is no filter.
 */
const outboxPage = ({ status, template } = OUTBOX_FILTERS, page = 1) => {
  const input: TMailOutboxListInput = {
    page,
    ...(isStatus(status) && { status }),
    ...(template && { template }),
  };
  return trpc.admin.mailOutbox.list.queryOptions(input);
};

export const Route = createFileRoute("/_admin/admin/manage/mail-outbox")({
  staticData: {
    adminSection: { label: "E-Mail-Versand", group: "Kommunikation", position: 9, what: "Die E-Mails" },
  },
  validateSearch: (search: Record<string, unknown>): SectionSearch<keyof typeof OUTBOX_FILTERS> => ({
    status: filterChoice(search.status),
    template: filterChoice(search.template),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(outboxPage(...fromSearch(OUTBOX_FILTERS, deps))),
  component: MailOutboxTab,
  errorComponent: LazySectionError,
});

/** The mail outbox: sent, queued and failed mails; failed ones can be sent again. */
function MailOutboxTab() {
  const queryClient = useQueryClient();
  const catalogue = useQuery(trpc.admin.mailTemplates.getCatalogue.queryOptions());
  const filters = useFilterBar([
    { name: "status", label: "Status", kind: "select", options: optionsOfLabels(MAIL_STATUS_LABELS) },
    {
      name: "template",
      label: "E-Mail-Art",
      kind: "select",
      options: (catalogue.data ?? []).map((m) => ({ value: m.name, label: m.description })),
    },
  ]);
  // the table's query (answered from its cache), for the number of attempts
  const { data } = useQuery({
    ...outboxPage(filters.applied, filters.page),
    placeholderData: keepPreviousData,
  });
  const resend = useMutation(trpc.admin.mailOutbox.resend.mutationOptions());

  const onResend = async (id: number) => {
    try {
      await resend.mutateAsync({ id });
      alerts.success(MSG_OUTBOX.resent);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.mailOutbox.pathKey() });
    } catch (error) {
      await showError(error);
    }
  };
  return (
    <AdminResource<OutboxMail>
      items="E-Mails"
      intro={`Empfänger:innen werden nur mit ihrer Domain angezeigt. Eine E-Mail gilt nach ${data?.maxAttempts ?? 8} erfolglosen Versuchen als fehlgeschlagen und kann erneut gesendet werden.`}
      list={(page) => outboxPage(filters.applied, page)}
      filters={filters}
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
          cell: (m) => <StatusText tone={STATUS_TONE[m.status]}>{m.statusLabel}</StatusText>,
        },
        { header: "Versuche", cell: (m) => m.attempts },
        { header: "Letzter Fehler", cell: (m) => m.lastError ?? "–", className: "max-w-xs break-words" },
        timeColumn("Erstellt", (m) => m.createdAt),
        timeColumn("Versendet", (m) => m.sentAt),
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
  );
}
