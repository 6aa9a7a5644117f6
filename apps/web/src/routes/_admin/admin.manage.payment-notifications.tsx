import {
  formatGermanDateTime,
  PAYMENT_OUTCOME_LABELS,
  type PaymentOutcome,
  type TPaymentNotificationListInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AdminResource } from "@/components/admin/admin-resource";
import { timeColumn } from "@/components/admin/columns";
import { useFilterBar } from "@/components/admin/filters";
import { LoadError } from "@/components/admin/load-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { optionsOfLabels } from "@/components/ui/select";
import { StatusText, type StatusTone } from "@/components/ui/status-text";
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

/** The filters at first: the order number the section was opened with (`?order=`), nothing else. */
export const notificationFilters = (orderNumber = "") => ({ orderNumber, email: "", outcome: "" });

/**
 * A page of the notifications as filtered (the section's loader asks for the first with the filters the
 * section opens with; the fields' values are used trimmed, as the filter bar applies them).
 */
export const notificationsPage = (filters = notificationFilters(), page = 1) => {
  const { outcome, orderNumber, email } = filters;
  const input: TPaymentNotificationListInput = {
    page,
    orderNumber: orderNumber.trim(),
    email: email.trim(),
    ...(outcome && { outcome: outcome as PaymentOutcome }),
  };
  return trpc.admin.paymentNotifications.list.queryOptions(input);
};

/**
 * The support view "Zahlungsmeldungen": every Digistore24 notification, newest first, with what we did with
 * it. `initialOrderNumber` comes from the URL (the order tables link here).
 */
export function PaymentNotificationsTab({ initialOrderNumber = "" }: { initialOrderNumber?: string }) {
  const filters = useFilterBar(
    [
      { name: "orderNumber", label: "Bestellnummer", kind: "search" },
      { name: "email", label: "E-Mail", kind: "search" },
      {
        name: "outcome",
        label: "Ergebnis",
        kind: "select",
        options: optionsOfLabels(PAYMENT_OUTCOME_LABELS),
      },
    ],
    notificationFilters(initialOrderNumber),
  );
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
