import {
  formatGermanDateTime,
  PAYMENT_OUTCOME_LABELS,
  PAYMENT_OUTCOMES,
  type PaymentOutcome,
  type TPaymentNotificationListInput,
} from "@app/shared";
import { SEARCH_MAX } from "@app/shared/constants";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useState } from "react";
import { AdminResource } from "@/components/admin/admin-resource";
import { timeColumn } from "@/components/admin/columns";
import { fromSearch, useFilterBar } from "@/components/admin/filters";
import { LoadError } from "@/components/admin/load-error";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { optionsOfLabels } from "@/components/ui/select";
import { StatusText, type StatusTone } from "@/components/ui/status-text";
import { filterChoice, filterText, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type Notification = RouterOutputs["admin"]["paymentNotifications"]["list"]["items"][number];
const OUTCOME_TONE: Record<string, StatusTone> = { processed: "good", conflict: "bad", failed: "bad" };

interface Shown {
  id: number;
  title: string;
}

/** Every field Digistore24 sent with one notification, loaded only when the admin asks for it. */
function RawPayloadDialog({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  const raw = useQuery(trpc.admin.paymentNotifications.get.queryOptions({ id: shown.id }));
  const fields = Object.entries(raw.data?.payload ?? {});
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="3xl">
        <DialogTitle>Rohdaten: {shown.title}</DialogTitle>
        <DialogDescription>Alle Felder, wie Digistore24 sie gesendet hat.</DialogDescription>
        {raw.isPending && <p className="mt-4 text-sm text-slate-700">Wird geladen …</p>}
        {raw.isError && <LoadError what="Die Rohdaten" onRetry={() => void raw.refetch()} />}
        {raw.data && fields.length === 0 && <p className="mt-4 text-sm text-slate-700">Keine Felder.</p>}
        {raw.data && fields.length > 0 && (
          <dl
            aria-label="Felder der Zahlungsmeldung"
            className="mt-4 grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1 text-sm"
          >
            {fields.map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="font-mono text-slate-700">{key}</dt>
                <dd className="break-all font-mono">
                  {value === "" ? <span className="text-slate-500">(leer)</span> : value}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The filters: the order number (`?order=`, which the order tables link with), the e-mail, the outcome. */
const NOTIFICATION_FILTERS = { order: "", email: "", outcome: "" };

const isOutcome = (value: string): value is PaymentOutcome => PAYMENT_OUTCOMES.some((o) => o === value);

/**
 * A page of the notifications as filtered (the section's loader asks for the one its address names); an
 * outcome that is none is no filter.
 */
const notificationsPage = (filters = NOTIFICATION_FILTERS, page = 1) => {
  const { outcome, order, email } = filters;
  const input: TPaymentNotificationListInput = {
    page,
    orderNumber: order,
    email,
    ...(isOutcome(outcome) && { outcome }),
  };
  return trpc.admin.paymentNotifications.list.queryOptions(input);
};

export const Route = createFileRoute("/_admin/admin/manage/payment-notifications")({
  staticData: { adminSection: { label: "Zahlungsmeldungen", group: "Verkauf", position: 6 } },
  validateSearch: (search: Record<string, unknown>): SectionSearch<keyof typeof NOTIFICATION_FILTERS> => ({
    order: filterText(search.order, SEARCH_MAX.notificationOrder),
    email: filterText(search.email, SEARCH_MAX.notificationEmail),
    outcome: filterChoice(search.outcome),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(notificationsPage(...fromSearch(NOTIFICATION_FILTERS, deps))),
  component: PaymentNotificationsTab,
  errorComponent: LazySectionError,
});

/**
 * The support view "Zahlungsmeldungen": every Digistore24 notification, newest first, with what we did with
 * it. The order tables link here with an order number (`?order=`).
 */
function PaymentNotificationsTab() {
  const filters = useFilterBar([
    { name: "order", label: "Bestellnummer", kind: "search", maxLength: SEARCH_MAX.notificationOrder },
    { name: "email", label: "E-Mail", kind: "search", maxLength: SEARCH_MAX.notificationEmail },
    {
      name: "outcome",
      label: "Ergebnis",
      kind: "select",
      options: optionsOfLabels(PAYMENT_OUTCOME_LABELS),
    },
  ]);
  const [shown, setShown] = useState<Shown | null>(null);
  return (
    <AdminResource<Notification>
      intro="Jede Meldung von Digistore24 und was daraus wurde. Die Daten der Käufer:innen werden nach 90 Tagen geleert; die E-Mail-Suche findet dann noch das Konto der Bestellung."
      list={(page) => notificationsPage(filters.applied, page)}
      filters={filters}
      columns={[
        timeColumn("Eingang", (n) => n.receivedAt),
        { header: "Ereignis", cell: (n) => <span className="font-mono">{n.event || "–"}</span> },
        { header: "Bestellnummer", cell: (n) => n.orderNumber ?? "–" },
        { header: "Produkt", cell: (n) => n.productId || "–" },
        { header: "E-Mail", cell: (n) => n.buyerEmail ?? "–", className: "max-w-xs break-words" },
        {
          header: "Ergebnis",
          cell: (n) => (
            <>
              <StatusText tone={OUTCOME_TONE[n.outcome]}>{n.outcomeLabel}</StatusText>
              {n.outcomeDetail && (
                <span className="block max-w-xs break-words text-xs text-slate-600">{n.outcomeDetail}</span>
              )}
            </>
          ),
        },
        {
          header: "Aktionen",
          cell: (n) => (
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Rohdaten anzeigen: ${n.event} ${n.orderNumber ?? ""} vom ${formatGermanDateTime(n.receivedAt)}`}
              onClick={() => setShown({ id: n.id, title: `${n.event} ${n.orderNumber ?? ""}`.trim() })}
            >
              Rohdaten anzeigen
            </Button>
          ),
        },
      ]}
    >
      {shown && <RawPayloadDialog shown={shown} onClose={() => setShown(null)} />}
    </AdminResource>
  );
}
