import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  type TAuditListInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { AdminResource } from "@/components/admin/admin-resource";
import { timeColumn } from "@/components/admin/columns";
import { useFilterBar } from "@/components/admin/filters";
import { optionsOfLabels } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AuditEntry = RouterOutputs["admin"]["audit"]["list"]["items"][number];

const PAYMENT = "kind:payment-notification";
const SYSTEM = "kind:system";

/** The list input of the filters: who is an admin's id, the payment provider or the system. */
export function auditListInput(
  f: { entity: string; action: string; actor: string; from: string; to: string },
  page: number,
): TAuditListInput {
  return {
    page,
    ...(f.entity && { entity: f.entity as AuditEntity }),
    ...(f.action && { action: f.action as AuditAction }),
    ...(f.actor === PAYMENT && { actorKind: "payment-notification" as const }),
    ...(f.actor === SYSTEM && { actorKind: "system" as const }),
    ...(f.actor.startsWith("admin:") && { actorId: Number(f.actor.slice(6)) }),
    ...(f.from && { from: f.from }),
    ...(f.to && { to: f.to }),
  };
}

const AUDIT_FILTERS = { entity: "", action: "", actor: "", from: "", to: "" };

/** A page of the log as filtered (the section's loader asks for the first, unfiltered). */
export const auditPage = (filters = AUDIT_FILTERS, page = 1) =>
  trpc.admin.audit.list.queryOptions(auditListInput(filters, page));

/** The audit log: every admin write and payment notification, newest first, read only. */
export function AuditTab() {
  const actors = useQuery(trpc.admin.audit.listActors.queryOptions());
  const actorOptions = [
    ...(actors.data ?? []).map((a) => ({ value: `admin:${a.id}`, label: a.name })),
    { value: PAYMENT, label: "Zahlungsanbieter" },
    { value: SYSTEM, label: "System" },
  ];
  const filters = useFilterBar([
    { name: "entity", label: "Bereich", kind: "select", options: optionsOfLabels(AUDIT_ENTITY_LABELS) },
    { name: "action", label: "Aktion", kind: "select", options: optionsOfLabels(AUDIT_ACTION_LABELS) },
    { name: "actor", label: "Ausgeführt von", kind: "select", options: actorOptions },
    { name: "from", label: "Von (Datum)", kind: "date" },
    { name: "to", label: "Bis (Datum)", kind: "date" },
  ]);
  return (
    <AdminResource<AuditEntry>
      items="Protokolleinträge"
      intro="Jede Änderung in der Administration und jede Zahlungsbenachrichtigung wird hier protokolliert. Einträge können nicht geändert oder gelöscht werden."
      list={(page) => auditPage(filters.applied, page)}
      filters={filters}
      columns={[
        timeColumn("Zeitpunkt", (e) => e.at),
        { header: "Ausgeführt von", cell: (e) => e.actor },
        {
          header: "Was",
          cell: (e) => (
            <>
              <span className="font-medium">{e.actionLabel}</span>
              <span className="block text-xs text-slate-600">
                {e.entityLabel}
                {e.entityId ? ` ${e.entityId}` : ""}
              </span>
            </>
          ),
        },
        {
          header: "Änderungen",
          cell: (e) =>
            e.lines.length === 0 ? (
              "–"
            ) : (
              <ul className="space-y-0.5 text-sm break-words">
                {e.lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ),
        },
      ]}
    />
  );
}
