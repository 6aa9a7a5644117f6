import { ADMIN_DESCRIPTION_CUT, cutText, formatEventDates, type TCongressInput } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
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
import { Checkbox } from "@/components/ui/checkbox";
import { FormField, InlineField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
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
  range: IsoRange;
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
  range: { from: null, to: null },
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
  range: { from: e.firstDay, to: e.lastDay ?? e.firstDay },
  digistoreIdTicket: String(e.digistoreIdTicket),
  digistoreIdTicketAndPackage: String(e.digistoreIdTicketAndPackage),
});

function toInput(f: EventForm): TCongressInput {
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    picture: f.picture,
    webinar: f.webinar,
    webinarUrl: f.webinarUrl,
    webinarStartTime: f.webinarStartTime,
    visible: f.visible,
    firstCongressDay: f.range.from ? { date: f.range.from } : null,
    lastCongressDay: f.range.to ? { date: f.range.to } : null,
    digistoreIdTicket: f.digistoreIdTicket || "0",
    digistoreIdTicketAndPackage: f.digistoreIdTicketAndPackage || "0",
  };
}

function EventDialog({ initial, onClose }: { initial: EventForm; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(initial);
  const save = useMutation(trpc.admin.congresses.save.mutationOptions());
  const set = <K extends keyof EventForm>(key: K, value: EventForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const rangeIncomplete = !form.range.from || !form.range.to;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (rangeIncomplete) {
      await alerts.error({
        title: "Zeitraum unvollständig",
        detail: "Bitte wählen Sie den ersten und den letzten Tag.",
      });
      return;
    }
    try {
      await save.mutateAsync(toInput(form));
      await queryClient.invalidateQueries({ queryKey: trpc.admin.congresses.list.queryKey() });
      alerts.success("Die Veranstaltung wurde gespeichert.");
      onClose();
    } catch (error) {
      await showError(error);
    }
  };

  return (
    <EditDialog
      title={form.id ? "Veranstaltung bearbeiten" : "Neue Veranstaltung"}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={save.isPending}
      wide
    >
      <FormField label="Titel *">
        <Input required value={form.title} onChange={(e) => set("title", e.target.value)} />
      </FormField>
      <FormField label="Beschreibung *">
        <Textarea required value={form.description} onChange={(e) => set("description", e.target.value)} />
      </FormField>
      <PictureField value={form.picture} onChange={(v) => set("picture", v)} />
      <div className="flex flex-wrap gap-6">
        <InlineField label="Sichtbar">
          <Checkbox checked={form.visible} onCheckedChange={(v) => set("visible", v)} />
        </InlineField>
        <InlineField label="Webinar">
          <Checkbox checked={form.webinar} onCheckedChange={(v) => set("webinar", v)} />
        </InlineField>
      </div>
      {form.webinar && (
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <FormField label="Webinar-Link">
            <Input type="url" value={form.webinarUrl} onChange={(e) => set("webinarUrl", e.target.value)} />
          </FormField>
          <FormField label="Beginn (HH:MM)">
            <Input
              inputMode="numeric"
              placeholder="18:00"
              value={form.webinarStartTime}
              onChange={(e) => set("webinarStartTime", e.target.value)}
            />
          </FormField>
        </div>
      )}
      <DateRangeField value={form.range} onChange={(v) => set("range", v)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Checkout-ID Ticket" hint="0 = kein Ticket (kostenlose Teilnahme)">
          <Input
            inputMode="numeric"
            value={form.digistoreIdTicket}
            onChange={(e) => set("digistoreIdTicket", e.target.value)}
          />
        </FormField>
        <FormField label="Checkout-ID Ticket + Kongresspaket" hint="0 = nicht angeboten">
          <Input
            inputMode="numeric"
            value={form.digistoreIdTicketAndPackage}
            onChange={(e) => set("digistoreIdTicketAndPackage", e.target.value)}
          />
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
