import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  formatGermanDateTime,
  type TAuditListInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { AdminResource } from "@/components/admin/admin-resource";
import { FilterBar, FilterInput, FilterSelect, useFilters } from "@/components/admin/filters";
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

/** The audit log: every admin write and payment notification, newest first, read only. */
const AUDIT_FILTERS = { entity: "", action: "", actor: "", from: "", to: "" };

/** A page of the log as filtered (the section's loader asks for the first, unfiltered). */
export const auditPage = (filters = AUDIT_FILTERS, page = 1) =>
  trpc.admin.audit.list.queryOptions(auditListInput(filters, page));

export function AuditTab() {
  const filters = useFilters(AUDIT_FILTERS);
  const actors = useQuery(trpc.admin.audit.listActors.queryOptions());
  const list = auditPage(filters.applied, filters.page);
  const actorOptions = [
    ...(actors.data ?? []).map((a) => ({ value: `admin:${a.id}`, label: a.name })),
    { value: PAYMENT, label: "Zahlungsanbieter" },
    { value: SYSTEM, label: "System" },
  ];
  return (
    <AdminResource<AuditEntry>
      label="Protokoll"
      what="Die Protokolleinträge"
      intro="Jede Änderung in der Administration und jede Zahlungsbenachrichtigung wird hier protokolliert. Einträge können nicht geändert oder gelöscht werden."
      list={list}
      onPage={filters.setPage}
      empty="Keine Protokolleinträge gefunden."
      filters={
        <FilterBar columns={5}>
          <FilterSelect
            filters={filters}
            name="entity"
            label="Bereich"
            options={optionsOfLabels(AUDIT_ENTITY_LABELS)}
          />
          <FilterSelect
            filters={filters}
            name="action"
            label="Aktion"
            options={optionsOfLabels(AUDIT_ACTION_LABELS)}
          />
          <FilterSelect filters={filters} name="actor" label="Ausgeführt von" options={actorOptions} />
          <FilterInput filters={filters} name="from" label="Von (Datum)" type="date" />
          <FilterInput filters={filters} name="to" label="Bis (Datum)" type="date" />
        </FilterBar>
      }
      columns={[
        {
          header: "Zeitpunkt",
          cell: (e) => `${formatGermanDateTime(e.at)} Uhr`,
          className: "whitespace-nowrap",
        },
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
