import {
  ADMIN_PAGE_SIZE,
  FAKE_ORDER_NUMBER,
  formatGermanDateTime,
  ZAdminPackageOrderInput,
  ZAdminTicketOrderInput,
} from "@app/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PlusIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { DataTable, LoadError, Pager, useDebounced } from "@/components/admin/admin-kit";
import { ExportButtons } from "@/components/admin/export-buttons";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";

export type OrderKind = "package" | "ticket";

interface OrderRow {
  id: number;
  userEmail: string;
  product: string;
  externalId: string;
  status: string;
  statusLabel: string;
  /** why a canceled order gives no access (Erstattung, Rückbuchung, Zahlung abgelehnt) */
  endReasonLabel: string | null;
  createdAt: Date;
}

function StatusLabel({ order }: { order: OrderRow }) {
  if (order.status !== "paid" && order.status !== "canceled") {
    return <span className="text-slate-600">–</span>;
  }
  return (
    <span className={cn("font-medium", order.status === "paid" ? "text-green-800" : "text-red-800")}>
      {order.statusLabel}
      {order.endReasonLabel && <span className="font-normal">: {order.endReasonLabel}</span>}
    </span>
  );
}

/** A bought order's number opens its payment notifications; an admin's FAKE-ORDER has none. */
function OrderNumberLink({ orderNumber }: { orderNumber: string }) {
  if (orderNumber === FAKE_ORDER_NUMBER) {
    return orderNumber;
  }
  return (
    <Link
      to="/admin/manage"
      search={{ tab: "payment-notifications", order: orderNumber }}
      className="text-brand-700 underline underline-offset-4"
      aria-label={`Zahlungsmeldungen zur Bestellung ${orderNumber}`}
    >
      {orderNumber}
    </Link>
  );
}

interface ChosenUser {
  id: number;
  label: string;
}

/** Searches users on the server (works with any number of users) and collects the chosen ones. */
function UserPicker({ chosen, onChange }: { chosen: ChosenUser[]; onChange: (users: ChosenUser[]) => void }) {
  const [email, setEmail] = useState("");
  const search = useDebounced(email.trim());
  const found = useQuery({
    ...trpc.admin.users.list.queryOptions({ name: "", email: search, page: 1 }),
    enabled: search.length >= 2,
  });
  return (
    <div className="flex flex-col gap-2">
      <FormField label="Personen suchen (E-Mail)" hint="Mindestens zwei Zeichen eingeben, dann auswählen.">
        <Input type="search" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormField>
      {found.data && (
        <ul aria-label="Suchergebnisse" className="max-h-40 overflow-y-auto rounded border border-slate-200">
          {found.data.items.map((u) => {
            const taken = chosen.some((c) => c.id === u.id);
            return (
              <li key={u.id}>
                <button
                  type="button"
                  disabled={taken}
                  className="w-full px-3 py-1.5 text-left text-sm hover:bg-slate-100 disabled:text-slate-400"
                  onClick={() =>
                    onChange([...chosen, { id: u.id, label: `${u.firstname} ${u.lastname} <${u.email}>` }])
                  }
                >
                  {u.firstname} {u.lastname} &lt;{u.email}&gt;
                </button>
              </li>
            );
          })}
          {found.data.items.length === 0 && (
            <li className="px-3 py-1.5 text-sm text-slate-600">Niemand gefunden.</li>
          )}
        </ul>
      )}
      <ul aria-label="Ausgewählte Personen" className="flex flex-wrap gap-2">
        {chosen.map((c) => (
          <li
            key={c.id}
            className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm"
          >
            {c.label}
            <button
              type="button"
              aria-label={`${c.label} entfernen`}
              onClick={() => onChange(chosen.filter((x) => x.id !== c.id))}
            >
              <XIcon aria-hidden="true" className="size-3.5" />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function CreateOrderDialog({ kind, onClose }: { kind: OrderKind; onClose: () => void }) {
  const queryClient = useQueryClient();
  const congresses = useQuery({ ...trpc.admin.congresses.list.queryOptions(), enabled: kind === "ticket" });
  const packages = useQuery({ ...trpc.admin.packages.list.queryOptions(), enabled: kind === "package" });
  const createPackage = useMutation(trpc.orders.createPackageOrders.mutationOptions());
  const createTicket = useMutation(trpc.orders.createTicketOrders.mutationOptions());
  const form = useSchemaForm({
    schema: kind === "package" ? ZAdminPackageOrderInput : ZAdminTicketOrderInput,
    defaultValues: { users: [] as ChosenUser[], product: "" },
    toInput: ({ users, product }) => ({
      users: users.map((u) => u.id),
      [kind === "package" ? "congressPackage" : "congress"]: product === "" ? null : product,
    }),
    fieldOf: { congressPackage: "product", congress: "product" },
  });
  const [users, product] = form.watch(["users", "product"]);
  const options =
    kind === "package"
      ? (packages.data ?? []).map((p) => ({ id: p.id, label: `${p.name} (${p.congress.title})` }))
      : (congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }));

  const onSubmit = form.submit(async (input) => {
    const created =
      "congressPackage" in input
        ? await createPackage.mutateAsync(input)
        : await createTicket.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
    alerts.success(`${created.length} Bestellung(en) angelegt; jede Person erhält eine E-Mail.`);
    onClose();
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="xl">
        <DialogTitle>
          {kind === "package" ? "Paketbestellung anlegen" : "Ticketbestellung anlegen"}
        </DialogTitle>
        <DialogDescription>
          Für jede gewählte Person wird eine bezahlte Bestellung mit der Nummer {FAKE_ORDER_NUMBER} angelegt,
          ohne Digistore24. Sie erhält denselben Zugang wie nach einem Kauf
          {kind === "ticket" ? " (Teilnahme)" : ""} und eine Bestätigung per E-Mail.
        </DialogDescription>
        <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
          <Controller
            control={form.control}
            name="users"
            render={({ field }) => <UserPicker chosen={field.value} onChange={field.onChange} />}
          />
          <FormField
            label={kind === "package" ? "Kongresspaket" : "Veranstaltung"}
            error={form.errorOf("product")}
          >
            <select
              className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
              {...form.register("product")}
            >
              <option value="">Bitte wählen …</option>
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              Abbrechen
            </Button>
            <Button
              type="submit"
              disabled={
                users.length === 0 || product === "" || createPackage.isPending || createTicket.isPending
              }
            >
              Bestellung anlegen
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The package or ticket order table with search and paging on the server, and the admin's order form. */
export function OrdersTab({ kind }: { kind: OrderKind }) {
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const input = { search: useDebounced(search.trim()), page };
  const packageOrders = useQuery({
    ...trpc.orders.packageOrders.queryOptions(input),
    placeholderData: keepPreviousData,
    enabled: kind === "package",
  });
  const ticketOrders = useQuery({
    ...trpc.orders.ticketOrders.queryOptions(input),
    placeholderData: keepPreviousData,
    enabled: kind === "ticket",
  });
  const list = kind === "package" ? packageOrders : ticketOrders;
  const [creating, setCreating] = useState(false);
  const rows: OrderRow[] =
    kind === "package"
      ? (packageOrders.data?.items ?? []).map((o) => ({ ...o, product: o.congressPackage.name }))
      : (ticketOrders.data?.items ?? []).map((o) => ({ ...o, product: o.congress.title }));
  const total = list.data?.total ?? 0;
  const label = kind === "package" ? "Paketbestellungen" : "Ticketbestellungen";

  if (list.isError) {
    return <LoadError what={`Die ${label}`} onRetry={() => void list.refetch()} />;
  }
  return (
    <section aria-label={label}>
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <FormField label="Nach E-Mail oder Bestellnummer suchen" className="w-full max-w-sm">
          <Input
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <ExportButtons
            path={`/api/admin/exports/${kind}-orders`}
            query={{ search: search.trim() }}
            what={label}
          />
          <Button onClick={() => setCreating(true)}>
            <PlusIcon aria-hidden="true" className="size-4" /> Bestellung anlegen
          </Button>
        </div>
      </div>
      <DataTable
        label={label}
        loading={list.isPending}
        empty="Keine Bestellungen gefunden."
        rows={rows}
        columns={[
          { header: "E-Mail", cell: (o) => o.userEmail },
          { header: kind === "package" ? "Kongresspaket" : "Veranstaltung", cell: (o) => o.product },
          { header: "Bestellnummer", cell: (o) => <OrderNumberLink orderNumber={o.externalId} /> },
          { header: "Status", cell: (o) => <StatusLabel order={o} /> },
          { header: "Angelegt", cell: (o) => `${formatGermanDateTime(o.createdAt)} Uhr` },
        ]}
      />
      <Pager
        page={page}
        pages={Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE))}
        onPage={setPage}
        total={total}
        exact={list.data?.totalExact ?? true}
      />
      {creating && <CreateOrderDialog kind={kind} onClose={() => setCreating(false)} />}
    </section>
  );
}
