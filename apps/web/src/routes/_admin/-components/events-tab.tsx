import {
  ADMIN_DESCRIPTION_CUT,
  cutText,
  formatEventDates,
  formatGermanDate,
  parseGermanDate,
  type TCongressInput,
  ZCongressInput,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { Controller } from "react-hook-form";
import {
  confirmDelete,
  DataTable,
  EditDialog,
  LoadError,
  Pager,
  RowActions,
  Textarea,
  usePaged,
  yesNo,
} from "@/components/admin/admin-kit";
import { DateRangeField, type IsoRange } from "@/components/admin/date-range-field";
import { ExportButtons } from "@/components/admin/export-buttons";
import { PictureField } from "@/components/admin/picture-field";
import { Button } from "@/components/ui/button";
import { FlagField } from "@/components/ui/flag-field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AdminEvent = RouterOutputs["admin"]["congresses"]["list"][number];

interface EventForm {
  id?: number;
  title: string;
  description: string;
  picture: string | null;
  webinar: boolean;
  webinarUrl: string;
  webinarStartTime: string;
  visible: boolean;
  /** TT.MM.JJJJ, typed or set by the date picker */
  firstDay: string;
  lastDay: string;
  digistoreIdTicket: string;
  digistoreIdTicketAndPackage: string;
}

const emptyForm: EventForm = {
  title: "",
  description: "",
  picture: null,
  webinar: false,
  webinarUrl: "",
  webinarStartTime: "",
  visible: false,
  firstDay: "",
  lastDay: "",
  digistoreIdTicket: "0",
  digistoreIdTicketAndPackage: "0",
};

const toForm = (e: AdminEvent): EventForm => ({
  id: e.id,
  title: e.title,
  description: e.description,
  picture: e.picture,
  webinar: e.webinar,
  webinarUrl: e.webinarUrl ?? "",
  webinarStartTime: e.webinarStartTime ?? "",
  visible: e.visible,
  firstDay: formatGermanDate(e.firstDay),
  lastDay: formatGermanDate(e.lastDay ?? e.firstDay),
  digistoreIdTicket: String(e.digistoreIdTicket),
  digistoreIdTicketAndPackage: String(e.digistoreIdTicketAndPackage),
});

/** A typed day as the schema's `{date}`; a day the schema cannot read is passed on for it to refuse. */
const dayInput = (text: string) => ({ date: parseGermanDate(text) ?? text.trim() });

export function toEventInput(f: EventForm): TCongressInput {
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    picture: f.picture,
    webinar: f.webinar,
    webinarUrl: f.webinarUrl,
    webinarStartTime: f.webinarStartTime,
    visible: f.visible,
    firstCongressDay: f.firstDay.trim() ? dayInput(f.firstDay) : null,
    // two days are chosen, also for a one-day event (spec): a missing last day is refused as no date
    lastCongressDay: f.firstDay.trim() || f.lastDay.trim() ? dayInput(f.lastDay) : null,
    digistoreIdTicket: f.digistoreIdTicket || "0",
    digistoreIdTicketAndPackage: f.digistoreIdTicketAndPackage || "0",
  };
}

export const eventFieldOf = { firstCongressDay: "firstDay", lastCongressDay: "lastDay" } as const;

function EventDialog({ initial, onClose }: { initial: EventForm; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation(trpc.admin.congresses.save.mutationOptions());
  const form = useSchemaForm({
    schema: ZCongressInput,
    defaultValues: initial,
    toInput: toEventInput,
    fieldOf: eventFieldOf,
  });
  const { register, control, errorOf, setValue } = form;
  const [firstDay, lastDay, webinar] = form.watch(["firstDay", "lastDay", "webinar"]);
  const range: IsoRange = { from: parseGermanDate(firstDay), to: parseGermanDate(lastDay) };
  const onRange = (next: IsoRange) => {
    setValue("firstDay", next.from ? formatGermanDate(next.from) : "");
    setValue("lastDay", next.to ? formatGermanDate(next.to) : "");
  };

  const onSubmit = form.submit(async (input) => {
    await save.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.congresses.list.queryKey() });
    alerts.success("Die Veranstaltung wurde gespeichert.");
    onClose();
  });

  return (
    <EditDialog
      title={initial.id ? "Veranstaltung bearbeiten" : "Neue Veranstaltung"}
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
      pending={save.isPending}
      wide
    >
      <FormField label="Titel *" error={errorOf("title")}>
        <Input {...register("title")} />
      </FormField>
      <FormField label="Beschreibung *" error={errorOf("description")}>
        <Textarea {...register("description")} />
      </FormField>
      <Controller
        control={control}
        name="picture"
        render={({ field }) => <PictureField value={field.value} onChange={field.onChange} />}
      />
      <div className="flex flex-wrap gap-6">
        <FlagField control={control} name="visible" label="Sichtbar" />
        <FlagField control={control} name="webinar" label="Webinar" />
      </div>
      {webinar && (
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <FormField label="Webinar-Link" error={errorOf("webinarUrl")}>
            <Input type="url" {...register("webinarUrl")} />
          </FormField>
          <FormField label="Beginn (HH:MM)" error={errorOf("webinarStartTime")}>
            <Input inputMode="numeric" placeholder="18:00" {...register("webinarStartTime")} />
          </FormField>
        </div>
      )}
      <DateRangeField value={range} onChange={onRange} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Erster Tag" hint="TT.MM.JJJJ" error={errorOf("firstDay")}>
          <Input inputMode="numeric" placeholder="TT.MM.JJJJ" {...register("firstDay")} />
        </FormField>
        <FormField label="Letzter Tag" hint="TT.MM.JJJJ" error={errorOf("lastDay")}>
          <Input inputMode="numeric" placeholder="TT.MM.JJJJ" {...register("lastDay")} />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Checkout-ID Ticket"
          hint="0 = kein Ticket (kostenlose Teilnahme)"
          error={errorOf("digistoreIdTicket")}
        >
          <Input inputMode="numeric" {...register("digistoreIdTicket")} />
        </FormField>
        <FormField
          label="Checkout-ID Ticket + Kongresspaket"
          hint="0 = nicht angeboten"
          error={errorOf("digistoreIdTicketAndPackage")}
        >
          <Input inputMode="numeric" {...register("digistoreIdTicketAndPackage")} />
        </FormField>
      </div>
    </EditDialog>
  );
}

export function EventsTab() {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.congresses.list.queryOptions());
  const remove = useMutation(trpc.admin.congresses.delete.mutationOptions());
  const [editing, setEditing] = useState<EventForm | null>(null);
  const paged = usePaged(list.data ?? []);

  if (list.isError) {
    return <LoadError what="Die Veranstaltungen" onRetry={() => void list.refetch()} />;
  }
  const onDelete = (e: AdminEvent) =>
    confirmDelete({
      detail: `Die Veranstaltung „${e.title}“ wird mit ihren Inhalten, Paketen und Teilnahmen gelöscht.`,
      run: async () => {
        await remove.mutateAsync({ id: e.id });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.congresses.list.queryKey() });
      },
      success: "Die Veranstaltung wurde gelöscht.",
      failure: "Die Veranstaltung konnte nicht gelöscht werden.",
    });

  return (
    <section aria-label="Veranstaltungen">
      <div className="mb-3 flex justify-end">
        <Button onClick={() => setEditing(emptyForm)}>
          <PlusIcon aria-hidden="true" className="size-4" /> Neue Veranstaltung
        </Button>
      </div>
      <DataTable
        label="Veranstaltungen"
        loading={list.isPending}
        empty="Noch keine Veranstaltungen."
        rows={paged.rows}
        columns={[
          { header: "Titel", cell: (e) => e.title },
          { header: "Beschreibung", cell: (e) => cutText(e.description, ADMIN_DESCRIPTION_CUT).text },
          { header: "Zeitraum", cell: (e) => formatEventDates(e.firstDay, e.lastDay) },
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
          {
            header: "Aktionen",
            cell: (e) => (
              <RowActions
                name={`${e.title}`}
                onEdit={() => setEditing(toForm(e))}
                onDelete={() => void onDelete(e)}
              />
            ),
          },
        ]}
      />
      <Pager page={paged.page} pages={paged.pages} onPage={paged.setPage} total={list.data?.length ?? 0} />
      {editing && <EventDialog initial={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
