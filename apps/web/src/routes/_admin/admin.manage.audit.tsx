import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  type TAuditListInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { AdminResource } from "@/components/admin/admin-resource";
import { timeColumn } from "@/components/admin/columns";
import { fromSearch, useFilterBar } from "@/components/admin/filters";
import { LazySectionError } from "@/components/lazy-route-error";
import { optionsOfLabels } from "@/components/ui/select";
import { filterChoice, filterDay, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AuditEntry = RouterOutputs["admin"]["audit"]["list"]["items"][number];

const PAYMENT = "kind:payment-notification";
const SYSTEM = "kind:system";

const isEntity = (value: string): value is AuditEntity => AUDIT_ENTITIES.some((e) => e === value);
const isAction = (value: string): value is AuditAction => AUDIT_ACTIONS.some((a) => a === value);

/**
 * The list input of the filters: who is an admin's id, the payment provider or the system. A value that is
 * none of its kind (an address typed by hand) is no filter.
 */
function auditListInput(
  f: { entity: string; action: string; actor: string; from: string; to: string },
  page: number,
): TAuditListInput {
  return {
    page,
    ...(isEntity(f.entity) && { entity: f.entity }),
    ...(isAction(f.action) && { action: f.action }),
    ...(f.actor === PAYMENT && { actorKind: "payment-notification" as const }),
    ...(f.actor === SYSTEM && { actorKind: "system" as const }),
    ...(/^admin:[1-9]\d{0,8}$/.test(f.actor) && { actorId: Number(f.actor.slice(6)) }),
    ...(f.from && { from: f.from }),
    ...(f.to && { to: f.to }),
  };
}

const AUDIT_FILTERS = { entity: "", action: "", actor: "", from: "", to: "" };

/** A page of the log as filtered (the section's loader asks for the one its address names). */
const auditPage = (filters = AUDIT_FILTERS, page = 1) =>
  trpc.admin.audit.list.queryOptions(auditListInput(filters, page));

export const Route = createFileRoute("/_admin/admin/manage/audit")({
  staticData: {
    adminSection: { label: "Protokoll", group: "System", position: 11, what: "Die Protokolleinträge" },
  },
  validateSearch: (search: Record<string, unknown>): SectionSearch<keyof typeof AUDIT_FILTERS> => ({
    entity: filterChoice(search.entity),
    action: filterChoice(search.action),
    actor: filterChoice(search.actor),
    from: filterDay(search.from),
    to: filterDay(search.to),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(auditPage(...fromSearch(AUDIT_FILTERS, deps))),
  component: AuditTab,
  errorComponent: LazySectionError,
});

/** The audit log: every admin write and payment notification, newest first, read only. */
function AuditTab() {
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
