import { formatGermanDate, type TPackageInput } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PlusIcon, XIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import {
  confirmDelete,
  DataTable,
  EditDialog,
  LoadError,
  Pager,
  RowActions,
  Select,
  Textarea,
  usePaged,
} from "@/components/admin/admin-kit";
import { PictureField } from "@/components/admin/picture-field";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AdminPackage = RouterOutputs["admin"]["packages"]["list"][number];

interface PackageForm {
  id?: number;
  name: string;
  congress: string;
  externalId: string;
  description: string;
  picture: string | null;
  availabilityDate: string;
  extra: { key: string; value: string }[];
}

const SUGGESTED_KEYS = ["voucher", "crosssellDescription", "crosssellLink"];
const emptyForm: PackageForm = {
  name: "",
  congress: "",
  externalId: "",
  description: "",
  picture: null,
  availabilityDate: "",
  extra: [],
};

const toForm = (p: AdminPackage): PackageForm => ({
  id: p.id,
  name: p.name,
  congress: String(p.congressId),
  externalId: String(p.externalId),
  description: p.description,
  picture: p.picture,
  availabilityDate: p.availabilityDate ?? "",
  extra: Object.entries(p.extraParameters).map(([key, value]) => ({ key, value })),
});

const toInput = (f: PackageForm): TPackageInput => ({
  id: f.id,
  name: f.name,
  congress: f.congress === "" ? null : f.congress,
  externalId: f.externalId,
  description: f.description,
  picture: f.picture,
  availabilityDate: f.availabilityDate === "" ? null : f.availabilityDate,
  extraParameters: Object.fromEntries(
    f.extra.filter((e) => e.key.trim() !== "").map((e) => [e.key.trim(), e.value]),
  ),
});

function PackageDialog({ initial, onClose }: { initial: PackageForm; onClose: () => void }) {
  const queryClient = useQueryClient();
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const save = useMutation(trpc.admin.packages.save.mutationOptions());
  const [form, setForm] = useState(initial);
  const set = <K extends keyof PackageForm>(key: K, value: PackageForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const setExtra = (index: number, patch: Partial<{ key: string; value: string }>) =>
    set(
      "extra",
      form.extra.map((e, i) => (i === index ? { ...e, ...patch } : e)),
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await save.mutateAsync(toInput(form));
      await queryClient.invalidateQueries({ queryKey: trpc.admin.packages.list.queryKey() });
      alerts.success("Das Kongresspaket wurde gespeichert.");
      onClose();
    } catch (error) {
      await showError(error);
    }
  };

  return (
    <EditDialog
      title={form.id ? "Kongresspaket bearbeiten" : "Neues Kongresspaket"}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={save.isPending}
    >
      <FormField label="Name *">
        <Input required value={form.name} onChange={(e) => set("name", e.target.value)} />
      </FormField>
      <FormField label="Veranstaltung *">
        <Select
          required
          value={form.congress}
          onChange={(e) => set("congress", e.target.value)}
          options={(congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }))}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Checkout-ID *">
          <Input
            required
            inputMode="numeric"
            value={form.externalId}
            onChange={(e) => set("externalId", e.target.value)}
          />
        </FormField>
        <FormField label="Verfügbar ab">
          <Input
            type="date"
            value={form.availabilityDate}
            onChange={(e) => set("availabilityDate", e.target.value)}
          />
        </FormField>
      </div>
      <FormField label="Beschreibung *">
        <Textarea required value={form.description} onChange={(e) => set("description", e.target.value)} />
      </FormField>
      <PictureField value={form.picture} onChange={(v) => set("picture", v)} />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Zusatzparameter</legend>
        <datalist id="extra-keys">
          {SUGGESTED_KEYS.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        {form.extra.map((entry, index) => (
          // entries have no identity beyond their position while being edited
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className="flex gap-2">
            <Input
              aria-label={`Parameter ${index + 1}: Name`}
              list="extra-keys"
              value={entry.key}
              onChange={(e) => setExtra(index, { key: e.target.value })}
            />
            <Input
              aria-label={`Parameter ${index + 1}: Wert`}
              value={entry.value}
              onChange={(e) => setExtra(index, { value: e.target.value })}
            />
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Parameter ${index + 1} entfernen`}
              onClick={() =>
                set(
                  "extra",
                  form.extra.filter((_, i) => i !== index),
                )
              }
            >
              <XIcon aria-hidden="true" className="size-4" />
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => set("extra", [...form.extra, { key: "", value: "" }])}
        >
          <PlusIcon aria-hidden="true" className="size-4" /> Parameter hinzufügen
        </Button>
        <p className="text-xs text-slate-600">
          voucher wird als Gutschein an die Kasse übergeben, crosssellDescription und crosssellLink zeigen
          eine Empfehlung auf der Paketseite; alle anderen Parameter gehen unverändert an die Kasse.
        </p>
      </fieldset>
    </EditDialog>
  );
}

export function PackagesTab() {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.packages.list.queryOptions());
  const remove = useMutation(trpc.admin.packages.delete.mutationOptions());
  const [editing, setEditing] = useState<PackageForm | null>(null);
  const paged = usePaged(list.data ?? []);
  if (list.isError) {
    return <LoadError what="Die Kongresspakete" onRetry={() => void list.refetch()} />;
  }
  const onDelete = (p: AdminPackage) =>
    confirmDelete({
      detail: `Das Kongresspaket „${p.name}“ wird gelöscht.`,
      run: async () => {
        await remove.mutateAsync({ id: p.id });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.packages.list.queryKey() });
      },
      success: "Das Kongresspaket wurde gelöscht.",
      failure: "Das Kongresspaket konnte nicht gelöscht werden.",
    });
  return (
    <section aria-label="Kongresspakete">
      <div className="mb-3 flex justify-end">
        <Button onClick={() => setEditing(emptyForm)}>
          <PlusIcon aria-hidden="true" className="size-4" /> Neues Kongresspaket
        </Button>
      </div>
      <DataTable
        label="Kongresspakete"
        loading={list.isPending}
        empty="Noch keine Kongresspakete."
        rows={paged.rows}
        columns={[
          { header: "Name", cell: (p) => p.name },
          { header: "Veranstaltung", cell: (p) => p.congress.title },
          { header: "Checkout-ID", cell: (p) => p.externalId },
          {
            header: "Verfügbar ab",
            cell: (p) => (p.availabilityDate ? formatGermanDate(p.availabilityDate) : "–"),
          },
          {
            header: "Aktionen",
            cell: (p) => (
              <RowActions
                name={`${p.name}`}
                onEdit={() => setEditing(toForm(p))}
                onDelete={() => void onDelete(p)}
              />
            ),
          },
        ]}
      />
      <Pager page={paged.page} pages={paged.pages} onPage={paged.setPage} total={list.data?.length ?? 0} />
      {editing && <PackageDialog initial={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
