import {
  alreadyPaidText,
  FAKE_ORDER_NUMBER,
  formatGermanDateTime,
  type TAdminOrderInput,
  ZAdminPackageOrderInput,
  ZAdminTicketOrderInput,
} from "@app/shared";
import { SEARCH_MAX } from "@app/shared/constants";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { XIcon } from "lucide-react";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { AdminResource } from "@/components/admin/admin-resource";
import { ExportButtons } from "@/components/admin/export-buttons";
import { fromSearch, useDebounced, useFilterBar } from "@/components/admin/filters";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { optionsOf, Select } from "@/components/ui/select";
import type { SectionSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";
import { cn } from "@/lib/utils";
import {
  type ChosenUser,
  emptyOrderForm,
  type OrderForm,
  type OrderKind,
  orderFieldOf,
  ordersCreatedText,
  toOrderInput,
} from "./admin-forms";

export type { OrderKind } from "./admin-forms";

type Orders = RouterOutputs["orders"];
type OrderRow = Orders["list"]["items"][number];
const productOf = (o: OrderRow) => ("congressPackage" in o ? o.congressPackage.name : o.congress.title);

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
      to="/admin/manage/payment-notifications"
      search={{ order: orderNumber }}
      className="text-brand-700 underline underline-offset-4"
      aria-label={`Zahlungsmeldungen zur Bestellung ${orderNumber}`}
    >
      {orderNumber}
    </Link>
  );
}

const UNCONFIRMED = "E-Mail nicht bestätigt";

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
            const label = `${u.firstname} ${u.lastname} <${u.email}>`;
            return (
              <li key={u.id}>
                <button
                  type="button"
                  disabled={taken}
                  // the badge is a word of its own: read from the contents it would run into the address
                  aria-label={u.emailConfirmed ? undefined : `${label}, ${UNCONFIRMED}`}
                  className="w-full px-3 py-1.5 text-left text-sm hover:bg-slate-100 disabled:text-slate-400"
                  onClick={() => onChange([...chosen, { id: u.id, label }])}
                >
                  {label}
                  {!u.emailConfirmed && (
                    // such an account cannot sign in until the address is confirmed: the order waits for it
                    <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">
                      {UNCONFIRMED}
                    </span>
                  )}
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

/**
 * What the order sections show and send per kind: the web's part of the order kind descriptor
 * (ADR 0097); the sections read it and branch on nothing else.
 */
const ORDER_VIEWS = {
  package: {
    label: "Paketbestellungen",
    createTitle: "Paketbestellung anlegen",
    productLabel: "Kongresspaket",
    grantsAlso: "",
    schema: ZAdminPackageOrderInput,
    useProductOptions: () =>
      optionsOf(
        useQuery(trpc.admin.packages.list.queryOptions()).data,
        (p) => `${p.name} (${p.congress.title})`,
      ),
  },
  ticket: {
    label: "Ticketbestellungen",
    createTitle: "Ticketbestellung anlegen",
    productLabel: "Veranstaltung",
    grantsAlso: " (Teilnahme)",
    schema: ZAdminTicketOrderInput,
    useProductOptions: () =>
      optionsOf(useQuery(trpc.admin.congresses.list.queryOptions()).data, (c) => c.title),
  },
} as const;

const orderSchema = (kind: OrderKind) => ORDER_VIEWS[kind].schema;

function OrderFields({
  kind,
  form,
}: {
  kind: OrderKind;
  form: SchemaForm<OrderForm, ReturnType<typeof orderSchema>>;
}) {
  const options = ORDER_VIEWS[kind].useProductOptions();
  return (
    <>
      <Controller
        control={form.control}
        name="users"
        render={({ field }) => <UserPicker chosen={field.value} onChange={field.onChange} />}
      />
      <FormField label={ORDER_VIEWS[kind].productLabel} error={form.errorOf("product")}>
        <Select {...form.register("product")} options={options} />
      </FormField>
      <AlreadyPaid kind={kind} form={form} />
    </>
  );
}

/**
 * Who of the chosen people already has the chosen product paid, as soon as both are chosen: a second order
 * would give nothing new (the server refuses it with the same text); one click takes them out.
 */
function AlreadyPaid({
  kind,
  form,
}: {
  kind: OrderKind;
  form: SchemaForm<OrderForm, ReturnType<typeof orderSchema>>;
}) {
  const [users, product] = form.watch(["users", "product"]);
  const paid = useQuery({
    ...trpc.orders.listPaidOrders.queryOptions({
      kind,
      productId: Number(product),
      users: users.map((u) => u.id),
    }),
    enabled: users.length > 0 && product !== "",
  });
  const found = users.length > 0 && product !== "" ? (paid.data ?? []) : [];
  const remove = () => {
    const ids = new Set(found.map((o) => o.userId));
    form.setValue(
      "users",
      users.filter((u) => !ids.has(u.id)),
      { shouldDirty: true },
    );
  };
  return (
    <div role="status">
      {found.length > 0 && (
        <div className="flex flex-col items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p>{alreadyPaidText(found)}</p>
          <Button type="button" variant="secondary" size="sm" onClick={remove}>
            Aus der Auswahl entfernen
          </Button>
        </div>
      )}
    </div>
  );
}

function CreateOrderDialog({ kind }: { kind: OrderKind }) {
  return (
    <ResourceEditor
      title={ORDER_VIEWS[kind].createTitle}
      description={
        <>
          Für jede gewählte Person wird eine bezahlte Bestellung mit der Nummer {FAKE_ORDER_NUMBER} angelegt,
          ohne Digistore24. Sie erhält denselben Zugang wie nach einem Kauf
          {ORDER_VIEWS[kind].grantsAlso} und eine Bestätigung per E-Mail.
        </>
      }
      schema={orderSchema(kind)}
      defaultValues={emptyOrderForm()}
      toInput={toOrderInput(kind)}
      fieldOf={orderFieldOf}
      save={async (input) => {
        const created = await trpcClient.orders.create.mutate({ ...input, kind } as TAdminOrderInput);
        return created.length;
      }}
      success={ordersCreatedText}
      submitLabel="Bestellung anlegen"
      canSubmit={({ users, product }) => users.length > 0 && product !== ""}
    >
      {(form) => <OrderFields kind={kind} form={form} />}
    </ResourceEditor>
  );
}

const ORDER_FILTERS = { search: "" };

/** A page of the package or ticket orders as searched (the section's loader asks for the one its address names). */
export const ordersPage = (kind: OrderKind, filters = ORDER_FILTERS, page = 1) => {
  const input = { ...filters, page };
  return trpc.orders.list.queryOptions({ ...input, kind });
};

/** The loader of an order section: the page its address names, as `ordersPage` asks for it. */
export const ordersLoader =
  (kind: OrderKind) =>
  ({
    context: { queryClient },
    deps,
  }: {
    context: { queryClient: QueryClient };
    deps: SectionSearch<"search">;
  }) => {
    const [filters, page] = fromSearch(ORDER_FILTERS, deps);
    return queryClient.ensureQueryData(ordersPage(kind, filters, page));
  };

/** The package or ticket order table with search and paging on the server, and the admin's order form. */
export function OrdersTab({ kind }: { kind: OrderKind }) {
  const filters = useFilterBar([
    {
      name: "search",
      label: "Nach E-Mail oder Bestellnummer suchen",
      kind: "search",
      maxLength: SEARCH_MAX.orders,
    },
  ]);
  const { label, productLabel } = ORDER_VIEWS[kind];
  return (
    <AdminResource<OrderRow>
      label={label}
      list={(page) => ordersPage(kind, filters.applied, page)}
      empty="Keine Bestellungen gefunden."
      filters={filters}
      actions={
        <ExportButtons
          path={`/api/admin/exports/${kind}-orders`}
          query={{ search: filters.shown.search.trim() }}
          what={label}
        />
      }
      columns={[
        { header: "E-Mail", cell: (o) => o.userEmail },
        { header: productLabel, cell: productOf },
        { header: "Bestellnummer", cell: (o) => <OrderNumberLink orderNumber={o.externalId} /> },
        { header: "Status", cell: (o) => <StatusLabel order={o} /> },
        { header: "Angelegt", cell: (o) => `${formatGermanDateTime(o.createdAt)} Uhr` },
      ]}
      create="Bestellung anlegen"
      editor={() => <CreateOrderDialog kind={kind} />}
    />
  );
}
