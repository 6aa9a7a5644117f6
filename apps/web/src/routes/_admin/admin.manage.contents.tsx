import { countOf, extractIframeSrc, formatVideoLength, MSG, vimeoId, ZContentInput } from "@app/shared";
import { SEARCH_MAX } from "@app/shared/constants";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { XIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import { AdminResource } from "@/components/admin/admin-resource";
import { fromSearch, useDebounced, useFilterBar } from "@/components/admin/filters";
import { AddButton, RemoveButton } from "@/components/admin/list-buttons";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { optionsOf, Select } from "@/components/ui/select";
import { searchAndPage } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import {
  type AdminContent,
  type ContentForm,
  contentToForm,
  newContentForm,
  newDay,
  newVideo,
} from "./-components/admin-forms";

type ContentFormApi = SchemaForm<ContentForm, typeof ZContentInput>;

function ListError({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** the hint every "Livestream" box is described by (one paragraph above the days) */
const LIVE_HINT_ID = "content-live-hint";

/**
 * What Vimeo tells of the video at the address the organiser enters, asked through our API (the browser
 * never calls Vimeo; ADR 0105, ADR 0126). Its length fills the length field when that is empty, or still
 * holds what an earlier address filled in, never over a length the organiser typed. A live stream (Vimeo's
 * duration 0) ticks "Livestream" until the organiser clicks the box (`liveByHand`); a later address that
 * Vimeo calls no live stream unticks what was ticked for an earlier one. The address the editor opened with
 * is not asked about (a stored content stays as saved, and a long one would ask for every video).
 */
function useVimeoPrefill(
  form: ContentFormApi,
  d: number,
  v: number,
): { told: boolean; saysLive: boolean; liveByHand: () => void } {
  const urlPath = `data.days.${d}.videos.${v}.url` as const;
  const durationPath = `data.days.${d}.videos.${v}.duration` as const;
  const livePath = `data.days.${d}.videos.${v}.live` as const;
  const url = useWatch({ control: form.control, name: urlPath });
  const address = useDebounced(url.trim(), 400);
  const opened = useRef(address);
  const asked = address !== opened.current && vimeoId(address) !== null;
  const lookup = useQuery({
    ...trpc.admin.contents.getVideoLength.queryOptions({ url: address }),
    enabled: asked,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const seconds = asked ? lookup.data?.seconds : undefined;
  const answered = asked && lookup.isSuccess;
  const saysLive = answered && lookup.data?.live === true;
  const filled = useRef<string | null>(null);
  const ticked = useRef(false);
  const byHand = useRef(false);
  const { getValues, setValue } = form;
  useEffect(() => {
    if (!seconds) {
      return;
    }
    const current = getValues(durationPath).trim();
    if (current === "" || current === filled.current) {
      const text = formatVideoLength(seconds);
      filled.current = text;
      setValue(durationPath, text, { shouldDirty: true });
    }
  }, [seconds, durationPath, getValues, setValue]);
  useEffect(() => {
    if (!answered || byHand.current) {
      return;
    }
    if (saysLive && !getValues(livePath)) {
      ticked.current = true;
      setValue(livePath, true, { shouldDirty: true });
    } else if (!saysLive && ticked.current) {
      ticked.current = false;
      setValue(livePath, false, { shouldDirty: true });
    }
  }, [answered, saysLive, livePath, getValues, setValue]);
  return {
    told: !(answered && seconds === null),
    saysLive,
    liveByHand: () => {
      byHand.current = true;
    },
  };
}

function VideoFields({
  form,
  d,
  v,
  onRemove,
}: {
  form: ContentFormApi;
  d: number;
  v: number;
  onRemove: () => void;
}) {
  const { register, errorOf, setValue } = form;
  const url = `data.days.${d}.videos.${v}.url` as const;
  const duration = `data.days.${d}.videos.${v}.duration` as const;
  const urlError = errorOf(url);
  const durationError = errorOf(duration);
  const errorId = `day-${d}-video-${v}-error`;
  const durationNoteId = `day-${d}-video-${v}-duration-note`;
  const liveId = `day-${d}-video-${v}-live`;
  const { told, saysLive, liveByHand } = useVimeoPrefill(form, d, v);
  const typed = useWatch({ control: form.control, name: duration });
  const empty = typed.trim() === "";
  const durationNote =
    durationError ??
    (empty && saysLive
      ? "Vimeo meldet einen Livestream: bitte die geplante Dauer eintragen."
      : empty && !told
        ? "Vimeo nennt keine Länge: bitte eintragen."
        : undefined);
  return (
    <div className="grid gap-2 sm:grid-cols-[1fr_1fr_8rem_auto_auto]">
      <div className="flex flex-col gap-1">
        <Input
          aria-label={`Tag ${d + 1}, Video ${v + 1}: Adresse`}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? errorId : undefined}
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
          <p id={errorId} role="alert" className="text-sm text-red-700">
            {urlError}
          </p>
        )}
      </div>
      <Input
        aria-label={`Tag ${d + 1}, Video ${v + 1}: Kommentar`}
        placeholder="Kommentar"
        {...register(`data.days.${d}.videos.${v}.comment`)}
      />
      <div className="flex flex-col gap-1">
        <Input
          aria-label={`Tag ${d + 1}, Video ${v + 1}: Länge`}
          aria-invalid={durationError ? true : undefined}
          aria-describedby={durationNote ? durationNoteId : undefined}
          placeholder="mm:ss"
          {...register(duration)}
        />
        {durationError ? (
          <p id={durationNoteId} role="alert" className="text-sm text-red-700">
            {durationError}
          </p>
        ) : (
          durationNote && (
            <p id={durationNoteId} className="text-xs text-slate-700">
              {durationNote}
            </p>
          )
        )}
      </div>
      {/* as tall as the fields beside it; the form only sends true or false, so no message of its own */}
      <div className="flex min-h-10 items-center gap-2 self-start text-sm">
        <Checkbox
          id={liveId}
          className="mt-0"
          aria-label={`Tag ${d + 1}, Video ${v + 1}: Livestream`}
          aria-describedby={LIVE_HINT_ID}
          {...register(`data.days.${d}.videos.${v}.live`, { onChange: liveByHand })}
        />
        <label htmlFor={liveId} className="cursor-pointer">
          Livestream
        </label>
      </div>
      <RemoveButton label={`Tag ${d + 1}, Video ${v + 1} entfernen`} onClick={onRemove} />
    </div>
  );
}

function DayFields({ form, d, onRemove }: { form: ContentFormApi; d: number; onRemove: () => void }) {
  const { register, control, errorOf } = form;
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
        {videos.fields.map((video, v) => (
          <VideoFields key={video.id} form={form} d={d} v={v} onRemove={() => videos.remove(v)} />
        ))}
        <ListError message={errorOf(`data.days.${d}.videos`)} />
        <AddButton onClick={() => videos.append(newVideo())}>Video hinzufügen</AddButton>
      </div>
    </fieldset>
  );
}

function ContentFields({ form }: { form: ContentFormApi }) {
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const days = useFieldArray({ control: form.control, name: "data.days" });
  return (
    <>
      <FormField label="Veranstaltung" error={form.errorOf("congress")}>
        <Select {...form.register("congress")} options={optionsOf(congresses.data, (c) => c.title)} />
      </FormField>
      <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-700">
        Tage mit einem exklusiven Datum (TT.MM.JJJJ) zeigen ihre Videos erst ab diesem Tag; Tage ohne Datum
        während der ganzen Veranstaltung. Sie können in ein Adressfeld auch den ganzen Einbettungscode von
        Vimeo einfügen. Die Länge (mm:ss oder hh:mm:ss) zählt für Fortbildungspunkte: Nennt Vimeo sie, wird
        sie eingetragen; private oder auf Domains beschränkte Videos nennen keine, tragen Sie sie dann selbst
        ein.
      </p>
      <p id={LIVE_HINT_ID} className="text-sm text-slate-700">
        Livestreams zählen nach der Uhrzeit; als Länge die geplante Dauer eintragen.
      </p>
      {days.fields.map((day, d) => (
        <DayFields key={day.id} form={form} d={d} onRemove={() => days.remove(d)} />
      ))}
      <ListError message={form.errorOf("data.days")} />
      <AddButton small={false} onClick={() => days.append(newDay(days.fields.length + 1))}>
        Tag hinzufügen
      </AddButton>
    </>
  );
}

const DaysCell = ({ content }: { content: AdminContent }) => (
  <ul className="text-sm">
    {content.data.days.map((d, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: days are listed by position
      <li key={i}>
        {d.name}: {countOf(d.videos?.length ?? 0, "Video", "Videos")}
        {d.exclusive_date ? ` (ab ${d.exclusive_date})` : ""}
      </li>
    ))}
  </ul>
);

const CONTENT_FILTERS = { search: "" };

/** A page of the contents table as searched (the section's loader asks for the one its address names). */
const contentsPage = (filters = CONTENT_FILTERS, page = 1) =>
  trpc.admin.contents.getPage.queryOptions({ ...filters, page });

export const Route = createFileRoute("/_admin/admin/manage/contents")({
  staticData: {
    adminSection: {
      label: "Videoinhalte",
      group: "Veranstaltungen & Inhalte",
      position: 3,
      what: "Die Kongressinhalte",
    },
  },
  validateSearch: searchAndPage(SEARCH_MAX.contents),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(contentsPage(...fromSearch(CONTENT_FILTERS, deps))),
  component: ContentsTab,
  errorComponent: LazySectionError,
});

function ContentsTab() {
  const filters = useFilterBar([
    { name: "search", label: "Suchen", kind: "search", maxLength: SEARCH_MAX.contents },
  ]);
  return (
    <AdminResource<AdminContent>
      label="Videoinhalte"
      what="Die Kongressinhalte"
      list={(page) => contentsPage(filters.applied, page)}
      empty="Keine Kongressinhalte gefunden."
      filters={filters}
      columns={[
        { header: "Veranstaltung", cell: (c) => c.congress.title },
        { header: "Daten", cell: (c) => <DaysCell content={c} /> },
      ]}
      rowName={(c) => `Inhalt von ${c.congress.title}`}
      create="Inhalt hinzufügen"
      editor={(c) => (
        <ResourceEditor
          title={c ? "Kongressinhalt bearbeiten" : "Neuer Kongressinhalt"}
          schema={ZContentInput}
          defaultValues={c ? contentToForm(c) : newContentForm()}
          save={trpcClient.admin.contents.save.mutate}
          success={MSG.contentSaved}
          wide
        >
          {(form) => <ContentFields form={form} />}
        </ResourceEditor>
      )}
      remove={{
        run: (c) => trpcClient.admin.contents.delete.mutate({ id: c.id }),
        detail: (c) => `Der Kongressinhalt von „${c.congress.title}“ wird gelöscht.`,
        success: MSG.contentDeleted,
        failure: "Der Kongressinhalt konnte nicht gelöscht werden.",
      }}
    />
  );
}
