import { formatGermanDate, type TPackageInput, ZPackageInput } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PlusIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { Controller, useFieldArray } from "react-hook-form";
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
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
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

export const toPackageInput = (f: PackageForm): TPackageInput => ({
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
  const form = useSchemaForm({
    schema: ZPackageInput,
    defaultValues: initial,
    toInput: toPackageInput,
    fieldOf: { extraParameters: "extra" },
  });
  const { register, control, errorOf } = form;
  const extra = useFieldArray({ control, name: "extra" });

  const onSubmit = form.submit(async (input) => {
    await save.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.packages.list.queryKey() });
    alerts.success("Das Kongresspaket wurde gespeichert.");
    onClose();
  });

  return (
    <EditDialog
      title={initial.id ? "Kongresspaket bearbeiten" : "Neues Kongresspaket"}
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
      pending={save.isPending}
    >
      <FormField label="Name *" error={errorOf("name")}>
        <Input {...register("name")} />
      </FormField>
      <FormField label="Veranstaltung *" error={errorOf("congress")}>
        <Select
          {...register("congress")}
          options={(congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }))}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Checkout-ID *" error={errorOf("externalId")}>
          <Input inputMode="numeric" {...register("externalId")} />
        </FormField>
        <FormField label="Verfügbar ab" error={errorOf("availabilityDate")}>
          <Input type="date" {...register("availabilityDate")} />
        </FormField>
      </div>
      <FormField label="Beschreibung *" error={errorOf("description")}>
        <Textarea {...register("description")} />
      </FormField>
      <Controller
        control={control}
        name="picture"
        render={({ field }) => <PictureField value={field.value} onChange={field.onChange} />}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Zusatzparameter</legend>
        <datalist id="extra-keys">
          {SUGGESTED_KEYS.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        {extra.fields.map((entry, index) => (
          <div key={entry.id} className="flex gap-2">
            <Input
              aria-label={`Parameter ${index + 1}: Name`}
              list="extra-keys"
              {...register(`extra.${index}.key`)}
            />
            <Input aria-label={`Parameter ${index + 1}: Wert`} {...register(`extra.${index}.value`)} />
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Parameter ${index + 1} entfernen`}
              onClick={() => extra.remove(index)}
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
          onClick={() => extra.append({ key: "", value: "" })}
        >
          <PlusIcon aria-hidden="true" className="size-4" /> Parameter hinzufügen
        </Button>
        <p className="text-xs text-slate-600">
          voucher wird als Gutschein an die Kasse übergeben, crosssellDescription und crosssellLink zeigen
          eine Empfehlung auf der Paketseite; alle anderen Parameter gehen unverändert an die Kasse.
        </p>
        {errorOf("extra") && (
          <p role="alert" className="text-sm text-red-700">
            {errorOf("extra")}
          </p>
        )}
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
