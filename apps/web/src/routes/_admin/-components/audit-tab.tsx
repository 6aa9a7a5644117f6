import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  formatGermanDateTime,
  type TAuditListInput,
} from "@app/shared";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ComponentProps } from "react";
import { useState } from "react";
import { DataTable, LoadError, ServerPager } from "@/components/admin/admin-kit";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";

const PAYMENT = "kind:payment-notification";
const SYSTEM = "kind:system";

/** A native select with an "Alle" entry (empty value). */
export function FilterSelect({
  options,
  ...props
}: ComponentProps<"select"> & { options: { value: string; label: string }[] }) {
  return (
    <select className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm" {...props}>
      <option value="">Alle</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

const entityOptions = Object.entries(AUDIT_ENTITY_LABELS).map(([value, label]) => ({ value, label }));
const actionOptions = Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }));

/** The audit log: every admin write and payment notification, newest first, read only. */
export function AuditTab() {
  const [entity, setEntity] = useState("");
  const [action, setAction] = useState("");
  const [actor, setActor] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(1);
  const actors = useQuery(trpc.admin.audit.actors.queryOptions());
  const filter: TAuditListInput = {
    page,
    ...(entity && { entity: entity as AuditEntity }),
    ...(action && { action: action as AuditAction }),
    ...(actor === PAYMENT && { actorKind: "payment-notification" as const }),
    ...(actor === SYSTEM && { actorKind: "system" as const }),
    ...(actor.startsWith("admin:") && { actorId: Number(actor.slice(6)) }),
    ...(from && { from }),
    ...(to && { to }),
  };
  const list = useQuery({ ...trpc.admin.audit.list.queryOptions(filter), placeholderData: keepPreviousData });

  if (list.isError) {
    return <LoadError what="Die Protokolleinträge" onRetry={() => void list.refetch()} />;
  }
  const change = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    setPage(1);
  };
  const actorOptions = [
    ...(actors.data ?? []).map((a) => ({ value: `admin:${a.id}`, label: a.name })),
    { value: PAYMENT, label: "Zahlungsanbieter" },
    { value: SYSTEM, label: "System" },
  ];
  const data = list.data;
  return (
    <section aria-label="Protokoll">
      <p className="mb-3 text-sm text-slate-700">
        Jede Änderung in der Administration und jede Zahlungsbenachrichtigung wird hier protokolliert.
        Einträge können nicht geändert oder gelöscht werden.
      </p>
      <div className="mb-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <FormField label="Bereich">
          <FilterSelect options={entityOptions} value={entity} onChange={change(setEntity)} />
        </FormField>
        <FormField label="Aktion">
          <FilterSelect options={actionOptions} value={action} onChange={change(setAction)} />
        </FormField>
        <FormField label="Ausgeführt von">
          <FilterSelect options={actorOptions} value={actor} onChange={change(setActor)} />
        </FormField>
        <FormField label="Von (Datum)">
          <Input type="date" value={from} onChange={change(setFrom)} />
        </FormField>
        <FormField label="Bis (Datum)">
          <Input type="date" value={to} onChange={change(setTo)} />
        </FormField>
      </div>
      <DataTable
        label="Protokoll"
        loading={list.isPending}
        empty="Keine Protokolleinträge gefunden."
        rows={data?.items ?? []}
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
      {data && <ServerPager data={data} onPage={setPage} />}
    </section>
  );
}
