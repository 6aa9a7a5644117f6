import {
  ADMIN_DESCRIPTION_CUT,
  CHECKOUT_ID_FIELDS,
  cutText,
  formatCongressDates,
  formatGermanDate,
  MSG_ADMIN,
  MSG_VNR,
  parseGermanDate,
  ZCongressInput,
} from "@app/shared";
import { createFileRoute } from "@tanstack/react-router";
import { AdminResource, yesNo } from "@/components/admin/admin-resource";
import { DateRangeField, type IsoRange } from "@/components/admin/date-range-field";
import { ExportButtons } from "@/components/admin/export-buttons";
import { PictureField } from "@/components/admin/picture-field";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { LazySectionError } from "@/components/lazy-route-error";
import { FlagField } from "@/components/ui/flag-field";
import { DateField, TextField } from "@/components/ui/text-field";
import { pageSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import {
  type AdminCongress,
  type CongressForm,
  congressToForm,
  emptyCongressForm,
} from "./-components/admin-forms";

/**
 * The Fortbildung group (ADR 0105): on/off, the chamber's numbers and how a participant reaches a day.
 * The rule itself is `dayOutcome` (@app/shared), the same for the participant's line and the organiser's list.
 */
function FortbildungFields({ form }: { form: SchemaForm<CongressForm, typeof ZCongressInput> }) {
  const [on, webinar] = form.watch(["fortbildung", "webinar"]);
  return (
    <fieldset className="flex flex-col gap-4 rounded-md border border-slate-200 p-4">
      <legend className="px-1 font-semibold text-slate-900">Fortbildung</legend>
      <FlagField control={form.control} name="fortbildung" label="Fortbildungspunkte vergeben" />
      {/* a VNR stored before it was checked is refused on the next save: its field shows why, also when off */}
      {(on || form.errorOf("vnr") !== undefined) && (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              form={form}
              name="vnr"
              label="Veranstaltungsnummer (VNR)"
              hint={MSG_VNR.hint}
              inputMode="numeric"
            />
            <TextField form={form} name="fortbildungCategory" label="Kategorie" placeholder="z. B. A" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              form={form}
              name="pointsPerDay"
              label="Punkte pro Tag"
              hint="Leer: 1 Punkt je 45 volle Minuten des Tagesinhalts"
              inputMode="numeric"
            />
            <TextField
              form={form}
              name="requiredPercent"
              label="Erforderlicher Anteil in %"
              hint="Anteil der Videolänge eines Tages (üblich: 80)"
              inputMode="numeric"
            />
            <TextField
              form={form}
              name="presenceChecksPerDay"
              label="Anwesenheitsabfragen pro Tag"
              hint="0 = keine Abfragen"
              inputMode="numeric"
            />
            <TextField
              form={form}
              name="presenceChecksRequired"
              label="Davon erforderlich"
              hint="Höchstens so viele wie gestellt"
              inputMode="numeric"
            />
          </div>
          {webinar && (
            <TextField
              form={form}
              name="webinarMinutes"
              label="Webinar-Dauer in Minuten"
              hint="Die Länge eines Webinartages, an der die Teilnahme gemessen wird"
              inputMode="numeric"
              className="sm:max-w-xs"
            />
          )}
        </>
      )}
    </fieldset>
  );
}

/**
 * Ticket plus package grants the packages the event has when it is paid: with none, buyers get the ticket
 * alone, and a package made later is not unlocked for them. Warned at the field, not refused (the
 * organiser may make the package before selling).
 */
function checkoutWarning(name: keyof typeof CHECKOUT_ID_FIELDS, id: string, packageCount: number) {
  return name === "digistoreIdTicketAndPackage" && Number(id) > 0 && packageCount === 0
    ? MSG_ADMIN.ticketPackageWithoutPackage
    : undefined;
}

function CongressFields({
  form,
  packageCount,
}: {
  form: SchemaForm<CongressForm, typeof ZCongressInput>;
  /** the packages the event has (none for a new event) */
  packageCount: number;
}) {
  const { control, setValue } = form;
  const [firstDay, lastDay, webinar, ticketAndPackage] = form.watch([
    "firstCongressDay",
    "lastCongressDay",
    "webinar",
    "digistoreIdTicketAndPackage",
  ]);
  const range: IsoRange = { from: parseGermanDate(firstDay), to: parseGermanDate(lastDay) };
  const onRange = (next: IsoRange) => {
    setValue("firstCongressDay", next.from ? formatGermanDate(next.from) : "");
    setValue("lastCongressDay", next.to ? formatGermanDate(next.to) : "");
  };
  return (
    <>
      <TextField form={form} name="title" label="Titel *" />
      <TextField form={form} name="description" label="Beschreibung *" multiline />
      <PictureField control={control} name="picture" />
      <div className="flex flex-wrap gap-6">
        <FlagField control={control} name="visible" label="Sichtbar" />
        <FlagField control={control} name="webinar" label="Webinar" />
      </div>
      {webinar && (
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <TextField form={form} name="webinarUrl" label="Webinar-Link" type="url" />
          <TextField
            form={form}
            name="webinarStartTime"
            label="Beginn (HH:MM)"
            inputMode="numeric"
            placeholder="18:00"
          />
        </div>
      )}
      <DateRangeField value={range} onChange={onRange} />
      <div className="grid gap-4 sm:grid-cols-2">
        <DateField form={form} name="firstCongressDay" label="Erster Tag" />
        <DateField form={form} name="lastCongressDay" label="Letzter Tag" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {/* the hint says what 0 means, and a refused value's message says the same */}
        {(["digistoreIdTicket", "digistoreIdTicketAndPackage"] as const).map((name) => (
          <TextField
            key={name}
            form={form}
            name={name}
            label={CHECKOUT_ID_FIELDS[name].label}
            hint={CHECKOUT_ID_FIELDS[name].zero}
            warning={checkoutWarning(name, ticketAndPackage, packageCount)}
            inputMode="numeric"
          />
        ))}
      </div>
      <FortbildungFields form={form} />
    </>
  );
}

/** A page of the events table (the one the address names, which the section's loader asks for too). */
const congressesPage = (page = 1) => trpc.admin.congresses.getPage.queryOptions({ page });

export const Route = createFileRoute("/_admin/admin/manage/events")({
  staticData: { adminSection: { label: "Veranstaltungen", group: "Veranstaltungen & Inhalte", position: 1 } },
  validateSearch: pageSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => queryClient.ensureQueryData(congressesPage(deps.page)),
  component: CongressesTab,
  errorComponent: LazySectionError,
});

function CongressesTab() {
  return (
    <AdminResource<AdminCongress>
      list={congressesPage}
      columns={[
        { header: "Titel", cell: (e) => e.title },
        { header: "Beschreibung", cell: (e) => cutText(e.description, ADMIN_DESCRIPTION_CUT).text },
        { header: "Zeitraum", cell: (e) => formatCongressDates(e.firstDay, e.lastDay) },
        { header: "Sichtbar", cell: (e) => yesNo(e.visible) },
        { header: "Teilnahmen", cell: (e) => e.participationCount },
        {
          header: "Teilnehmende exportieren",
          cell: (e) => (
            <ExportButtons
              path={`/api/admin/exports/participants/${e.id}`}
              what={`Teilnehmende von ${e.title}`}
            />
          ),
        },
        // the webinar tool's attendance for a day (ADR 0107; moves to the Fortbildung section)
      ]}
      rowName={(e) => e.title}
      create="Neue Veranstaltung"
      editor={(e) => (
        <ResourceEditor
          title={e ? "Veranstaltung bearbeiten" : "Neue Veranstaltung"}
          schema={ZCongressInput}
          defaultValues={e ? congressToForm(e) : emptyCongressForm}
          save={trpcClient.admin.congresses.save.mutate}
          success="Die Veranstaltung wurde gespeichert."
          wide
        >
          {(form) => <CongressFields form={form} packageCount={e?.packageCount ?? 0} />}
        </ResourceEditor>
      )}
      remove={{
        run: (e) => trpcClient.admin.congresses.delete.mutate({ id: e.id }),
        detail: (e) =>
          `Die Veranstaltung „${e.title}“ wird mit ihren Inhalten, Paketen und Teilnahmen gelöscht.`,
        success: "Die Veranstaltung wurde gelöscht.",
        failure: "Die Veranstaltung konnte nicht gelöscht werden.",
      }}
    />
  );
}
