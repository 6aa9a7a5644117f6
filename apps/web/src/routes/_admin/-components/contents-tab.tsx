import { extractIframeSrc, MSG, ZContentInput } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PlusIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { useFieldArray } from "react-hook-form";
import {
  confirmDelete,
  DataTable,
  EditDialog,
  LoadError,
  Pager,
  RowActions,
  Select,
  usePaged,
} from "@/components/admin/admin-kit";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AdminContent = RouterOutputs["admin"]["contents"]["list"][number];
interface DayForm {
  name: string;
  exclusive_date: string;
  videos: { url: string; comment: string }[];
}
/** shaped like the schema's input, so every message's path is the field's name */
interface ContentForm {
  id?: number;
  congress: string;
  type: "vimeo" | "vimeo-url";
  data: { days: DayForm[] };
}

const newDay = (n: number): DayForm => ({
  name: `Tag ${n}`,
  exclusive_date: "",
  videos: [{ url: "", comment: "" }],
});

const newContentForm = (): ContentForm => ({ congress: "", type: "vimeo-url", data: { days: [newDay(1)] } });

const toForm = (c: AdminContent): ContentForm => ({
  id: c.id,
  congress: String(c.congress.id),
  type: c.type,
  data: {
    days: c.data.days.map((d) => ({
      name: d.name,
      exclusive_date: d.exclusive_date ?? "",
      videos: (d.videos ?? []).map((v) => ({ url: v.url, comment: v.comment ?? "" })),
    })),
  },
});

type ContentFormApi = ReturnType<typeof useSchemaForm<ContentForm, typeof ZContentInput>>;

function ListError({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

function DayFields({ form, d, onRemove }: { form: ContentFormApi; d: number; onRemove: () => void }) {
  const { register, control, errorOf, setValue } = form;
  const videos = useFieldArray({ control, name: `data.days.${d}.videos` });
  return (
    <fieldset className="rounded-lg border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold">Tag {d + 1}</legend>
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem_auto]">
        <FormField label="Name des Tages" error={errorOf(`data.days.${d}.name`)}>
          <Input {...register(`data.days.${d}.name`)} />
        </FormField>
        <FormField label="Exklusives Datum" error={errorOf(`data.days.${d}.exclusive_date`)}>
          <Input placeholder="TT.MM.JJJJ" {...register(`data.days.${d}.exclusive_date`)} />
        </FormField>
        <Button type="button" variant="ghost" className="self-end" onClick={onRemove}>
          <XIcon aria-hidden="true" className="size-4" /> Tag entfernen
        </Button>
      </div>
      <div className="mt-3 flex flex-col gap-2">
        {videos.fields.map((video, v) => {
          const url = `data.days.${d}.videos.${v}.url` as const;
          const urlError = errorOf(url);
          return (
            <div key={video.id} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto]">
              <div className="flex flex-col gap-1">
                <Input
                  aria-label={`Tag ${d + 1}, Video ${v + 1}: Adresse`}
                  aria-invalid={urlError ? true : undefined}
                  aria-describedby={urlError ? `${video.id}-error` : undefined}
                  placeholder="https://player.vimeo.com/video/…"
                  {...register(url, {
                    // a pasted embed code becomes the player address it points at
                    onChange: (e: { target: { value: string } }) => {
                      const src = extractIframeSrc(e.target.value);
                      if (src !== e.target.value) {
                        setValue(url, src);
                      }
                    },
                  })}
                />
                {urlError && (
                  <p id={`${video.id}-error`} role="alert" className="text-sm text-red-700">
                    {urlError}
                  </p>
                )}
              </div>
              <Input
                aria-label={`Tag ${d + 1}, Video ${v + 1}: Kommentar`}
                placeholder="Kommentar"
                {...register(`data.days.${d}.videos.${v}.comment`)}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Tag ${d + 1}, Video ${v + 1} entfernen`}
                onClick={() => videos.remove(v)}
              >
                <XIcon aria-hidden="true" className="size-4" />
              </Button>
            </div>
          );
        })}
        <ListError message={errorOf(`data.days.${d}.videos`)} />
        <Button
          type="button"
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => videos.append({ url: "", comment: "" })}
        >
          <PlusIcon aria-hidden="true" className="size-4" /> Video hinzufügen
        </Button>
      </div>
    </fieldset>
  );
}

function ContentDialog({ initial, onClose }: { initial: ContentForm; onClose: () => void }) {
  const queryClient = useQueryClient();
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const save = useMutation(trpc.admin.contents.save.mutationOptions());
  const form = useSchemaForm({ schema: ZContentInput, defaultValues: initial });
  const days = useFieldArray({ control: form.control, name: "data.days" });

  const onSubmit = form.submit(async (input) => {
    await save.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.contents.pathKey() });
    alerts.success(MSG.contentSaved);
    onClose();
  });

  return (
    <EditDialog
      title={initial.id ? "Kongressinhalt bearbeiten" : "Neuer Kongressinhalt"}
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
      pending={save.isPending}
      wide
    >
      <FormField label="Veranstaltung" error={form.errorOf("congress")}>
        <Select
          {...form.register("congress")}
          options={(congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }))}
        />
      </FormField>
      <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-700">
        Tage mit einem exklusiven Datum (TT.MM.JJJJ) zeigen ihre Videos erst ab diesem Tag; Tage ohne Datum
        während der ganzen Veranstaltung. Sie können in ein Adressfeld auch den ganzen Einbettungscode von
        Vimeo einfügen.
      </p>
      {days.fields.map((day, d) => (
        <DayFields key={day.id} form={form} d={d} onRemove={() => days.remove(d)} />
      ))}
      <ListError message={form.errorOf("data.days")} />
      <Button
        type="button"
        variant="secondary"
        className="self-start"
        onClick={() => days.append(newDay(days.fields.length + 1))}
      >
        <PlusIcon aria-hidden="true" className="size-4" /> Tag hinzufügen
      </Button>
    </EditDialog>
  );
}

export function ContentsTab() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const list = useQuery(trpc.admin.contents.list.queryOptions({ search }));
  const remove = useMutation(trpc.admin.contents.delete.mutationOptions());
  const [editing, setEditing] = useState<ContentForm | null>(null);
  const paged = usePaged(list.data ?? []);
  if (list.isError) {
    return <LoadError what="Die Kongressinhalte" onRetry={() => void list.refetch()} />;
  }
  const onDelete = (c: AdminContent) =>
    confirmDelete({
      detail: `Der Kongressinhalt von „${c.congress.title}“ wird gelöscht.`,
      run: async () => {
        await remove.mutateAsync({ id: c.id });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.contents.pathKey() });
      },
      success: MSG.contentDeleted,
      failure: "Der Kongressinhalt konnte nicht gelöscht werden.",
    });
  return (
    <section aria-label="Videoinhalte">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <FormField label="Suchen" className="w-full max-w-sm">
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </FormField>
        <Button onClick={() => setEditing(newContentForm())}>
          <PlusIcon aria-hidden="true" className="size-4" /> Inhalt hinzufügen
        </Button>
      </div>
      <DataTable
        label="Videoinhalte"
        loading={list.isPending}
        empty="Keine Kongressinhalte gefunden."
        rows={paged.rows}
        columns={[
          { header: "Veranstaltung", cell: (c) => c.congress.title },
          {
            header: "Daten",
            cell: (c) => (
              <ul className="text-sm">
                {c.data.days.map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: days are listed by position
                  <li key={i}>
                    {d.name}: {d.videos?.length ?? 0} Videos
                    {d.exclusive_date ? ` (ab ${d.exclusive_date})` : ""}
                  </li>
                ))}
              </ul>
            ),
          },
          {
            header: "Aktionen",
            cell: (c) => (
              <RowActions
                name={`Inhalt von ${c.congress.title}`}
                onEdit={() => setEditing(toForm(c))}
                onDelete={() => void onDelete(c)}
              />
            ),
          },
        ]}
      />
      <Pager page={paged.page} pages={paged.pages} onPage={paged.setPage} total={list.data?.length ?? 0} />
      {editing && <ContentDialog initial={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
