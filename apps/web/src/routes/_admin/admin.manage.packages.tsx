import { formatGermanDate, ZPackageInput } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useFieldArray } from "react-hook-form";
import { AdminResource } from "@/components/admin/admin-resource";
import { AddButton, RemoveButton } from "@/components/admin/list-buttons";
import { PictureField } from "@/components/admin/picture-field";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { LazySectionError } from "@/components/lazy-route-error";
import { Input } from "@/components/ui/input";
import { optionsOf } from "@/components/ui/select";
import { DateField, SelectField, TextField } from "@/components/ui/text-field";
import { pageSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import {
  type AdminPackage,
  emptyPackageForm,
  type PackageForm,
  packageToForm,
} from "./-components/admin-forms";

const SUGGESTED_KEYS = ["voucher", "crosssellDescription", "crosssellLink"];

function ExtraParameters({ form }: { form: SchemaForm<PackageForm, typeof ZPackageInput> }) {
  const { register, control, errorOf } = form;
  const extra = useFieldArray({ control, name: "extraParameters" });
  return (
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
            {...register(`extraParameters.${index}.key`)}
          />
          <Input
            aria-label={`Parameter ${index + 1}: Wert`}
            {...register(`extraParameters.${index}.value`)}
          />
          <RemoveButton label={`Parameter ${index + 1} entfernen`} onClick={() => extra.remove(index)} />
        </div>
      ))}
      <AddButton onClick={() => extra.append({ key: "", value: "" })}>Parameter hinzufügen</AddButton>
      <p className="text-xs text-slate-600">
        voucher wird als Gutschein an die Kasse übergeben, crosssellDescription und crosssellLink zeigen eine
        Empfehlung auf der Paketseite (crosssellLink: eine Web-Adresse mit https:// oder ein Pfad dieser Seite
        wie /congress-package-purchase/5); alle anderen Parameter gehen unverändert an die Kasse.
      </p>
      {errorOf("extraParameters") && (
        <p role="alert" className="text-sm text-red-700">
          {errorOf("extraParameters")}
        </p>
      )}
    </fieldset>
  );
}

function PackageFields({ form }: { form: SchemaForm<PackageForm, typeof ZPackageInput> }) {
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const { control } = form;
  return (
    <>
      <TextField form={form} name="name" label="Name *" />
      <SelectField
        form={form}
        name="congress"
        label="Veranstaltung *"
        options={optionsOf(congresses.data, (c) => c.title)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="externalId" label="Checkout-ID *" inputMode="numeric" />
        <DateField form={form} name="availabilityDate" label="Verfügbar ab" />
      </div>
      <TextField form={form} name="description" label="Beschreibung *" multiline />
      <PictureField control={control} name="picture" />
      <ExtraParameters form={form} />
    </>
  );
}

/** A page of the packages table (the one the address names, which the section's loader asks for too). */
const packagesPage = (page = 1) => trpc.admin.packages.getPage.queryOptions({ page });

export const Route = createFileRoute("/_admin/admin/manage/packages")({
  staticData: { adminSection: { label: "Kongresspakete", group: "Veranstaltungen & Inhalte", position: 2 } },
  validateSearch: pageSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => queryClient.ensureQueryData(packagesPage(deps.page)),
  component: PackagesTab,
  errorComponent: LazySectionError,
});

function PackagesTab() {
  return (
    <AdminResource<AdminPackage>
      list={packagesPage}
      // a package changes more than its table: the events' package counts (the event form's warning about a
      // ticket-and-package id without a package) and the package choices of other sections
      invalidates={trpc.admin.pathKey()}
      columns={[
        { header: "Name", cell: (p) => p.name },
        { header: "Veranstaltung", cell: (p) => p.congress.title },
        { header: "Checkout-ID", cell: (p) => p.externalId },
        {
          header: "Verfügbar ab",
          cell: (p) => (p.availabilityDate ? formatGermanDate(p.availabilityDate) : "–"),
        },
      ]}
      rowName={(p) => p.name}
      create="Neues Kongresspaket"
      editor={(p) => (
        <ResourceEditor
          title={p ? "Kongresspaket bearbeiten" : "Neues Kongresspaket"}
          schema={ZPackageInput}
          defaultValues={p ? packageToForm(p) : emptyPackageForm}
          save={trpcClient.admin.packages.save.mutate}
          success="Das Kongresspaket wurde gespeichert."
        >
          {(form) => <PackageFields form={form} />}
        </ResourceEditor>
      )}
      remove={{
        run: (p) => trpcClient.admin.packages.delete.mutate({ id: p.id }),
        detail: (p) => `Das Kongresspaket „${p.name}“ wird gelöscht.`,
        success: "Das Kongresspaket wurde gelöscht.",
        failure: "Das Kongresspaket konnte nicht gelöscht werden.",
      }}
    />
  );
}
