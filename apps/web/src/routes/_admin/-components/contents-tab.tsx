import { extractIframeSrc, MSG, type TContentInput } from "@app/shared";
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
  usePaged,
} from "@/components/admin/admin-kit";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type AdminContent = RouterOutputs["admin"]["contents"]["list"][number];
interface DayForm {
  name: string;
  exclusive_date: string;
  videos: { url: string; comment: string }[];
}
interface ContentForm {
  id?: number;
  congress: string;
  type: "vimeo" | "vimeo-url";
  days: DayForm[];
}

const newDay = (n: number): DayForm => ({
  name: `Tag ${n}`,
  exclusive_date: "",
  videos: [{ url: "", comment: "" }],
});

const toForm = (c: AdminContent): ContentForm => ({
  id: c.id,
  congress: String(c.congress.id),
  type: c.type,
  days: c.data.days.map((d) => ({
    name: d.name,
    exclusive_date: d.exclusive_date ?? "",
    videos: (d.videos ?? []).map((v) => ({ url: v.url, comment: v.comment ?? "" })),
  })),
});

function ContentDialog({ initial, onClose }: { initial: ContentForm; onClose: () => void }) {
  const queryClient = useQueryClient();
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const save = useMutation(trpc.admin.contents.save.mutationOptions());
  const [form, setForm] = useState(initial);
  const setDay = (index: number, patch: Partial<DayForm>) =>
    setForm((f) => ({ ...f, days: f.days.map((d, i) => (i === index ? { ...d, ...patch } : d)) }));
  const setVideo = (day: number, video: number, patch: Partial<{ url: string; comment: string }>) =>
    setDay(day, {
      videos: (form.days[day]?.videos ?? []).map((v, i) => (i === video ? { ...v, ...patch } : v)),
    });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const input: TContentInput = {
      id: form.id,
      congress: form.congress,
      type: form.type,
      data: { days: form.days },
    };
    try {
      await save.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.contents.pathKey() });
      alerts.success(MSG.contentSaved);
      onClose();
    } catch (error) {
      await showError(error);
    }
  };

  return (
    <EditDialog
      title={form.id ? "Kongressinhalt bearbeiten" : "Neuer Kongressinhalt"}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={save.isPending}
      wide
    >
      <FormField label="Veranstaltung">
        <Select
          value={form.congress}
          onChange={(e) => setForm((f) => ({ ...f, congress: e.target.value }))}
          options={(congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }))}
        />
      </FormField>
      <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-700">
        Tage mit einem exklusiven Datum (TT.MM.JJJJ) zeigen ihre Videos erst ab diesem Tag; Tage ohne Datum
        während der ganzen Veranstaltung. Sie können in ein Adressfeld auch den ganzen Einbettungscode von
        Vimeo einfügen.
      </p>
      {form.days.map((day, d) => (
        // days are edited by position
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <fieldset key={d} className="rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold">Tag {d + 1}</legend>
          <div className="grid gap-3 sm:grid-cols-[1fr_12rem_auto]">
            <FormField label="Name des Tages">
              <Input value={day.name} onChange={(e) => setDay(d, { name: e.target.value })} />
            </FormField>
            <FormField label="Exklusives Datum">
              <Input
                placeholder="TT.MM.JJJJ"
                value={day.exclusive_date}
                onChange={(e) => setDay(d, { exclusive_date: e.target.value })}
              />
            </FormField>
            <Button
              type="button"
              variant="ghost"
              className="self-end"
              onClick={() => setForm((f) => ({ ...f, days: f.days.filter((_, i) => i !== d) }))}
            >
              <XIcon aria-hidden="true" className="size-4" /> Tag entfernen
            </Button>
          </div>
          <div className="mt-3 flex flex-col gap-2">
            {day.videos.map((video, v) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: videos are edited by position
              <div key={v} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto]">
                <Input
                  aria-label={`Tag ${d + 1}, Video ${v + 1}: Adresse`}
                  placeholder="https://player.vimeo.com/video/…"
                  value={video.url}
                  onChange={(e) => setVideo(d, v, { url: extractIframeSrc(e.target.value) })}
                />
                <Input
                  aria-label={`Tag ${d + 1}, Video ${v + 1}: Kommentar`}
                  placeholder="Kommentar"
                  value={video.comment}
                  onChange={(e) => setVideo(d, v, { comment: e.target.value })}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Tag ${d + 1}, Video ${v + 1} entfernen`}
                  onClick={() => setDay(d, { videos: day.videos.filter((_, i) => i !== v) })}
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
              onClick={() => setDay(d, { videos: [...day.videos, { url: "", comment: "" }] })}
            >
              <PlusIcon aria-hidden="true" className="size-4" /> Video hinzufügen
            </Button>
          </div>
        </fieldset>
      ))}
      <Button
        type="button"
        variant="secondary"
        className="self-start"
        onClick={() => setForm((f) => ({ ...f, days: [...f.days, newDay(f.days.length + 1)] }))}
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
        <Button onClick={() => setEditing({ congress: "", type: "vimeo-url", days: [newDay(1)] })}>
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
