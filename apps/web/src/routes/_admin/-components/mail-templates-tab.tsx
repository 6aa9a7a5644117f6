import {
  MSG,
  MSG_TEMPLATES,
  type TMailTemplateInput,
  ZCopyTemplatesInput,
  ZMailTemplateInput,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PencilIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Controller } from "react-hook-form";
import { DataTable, EditDialog, LoadError, Pager, Select, usePaged } from "@/components/admin/admin-kit";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

// the editor is large: it loads only when a template is opened
const RichTextEditor = lazy(() =>
  import("@/components/admin/rich-text-editor").then((m) => ({ default: m.RichTextEditor })),
);

type Template = RouterOutputs["admin"]["mailTemplates"]["list"][number];

const textOf = (html: string) => new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";

function TemplateDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const queryClient = useQueryClient();
  // only subject and content are edited here; the rest of the template goes to the schema as it is
  const form = useSchemaForm({
    schema: ZMailTemplateInput,
    defaultValues: { subject: template.subject, content: template.content },
    toInput: (values): TMailTemplateInput => ({
      id: template.id,
      name: template.name,
      congress: template.congress?.id ?? null,
      description: template.description,
      ...values,
    }),
  });
  const [preview, setPreview] = useState<{ subject: string; html: string } | null>(null);
  const save = useMutation(trpc.admin.mailTemplates.save.mutationOptions());
  const render = useMutation(trpc.admin.mailTemplates.preview.mutationOptions());
  const sendTest = useMutation(trpc.admin.mailTemplates.sendTest.mutationOptions());
  const draft = () => ({ name: template.name, ...form.getValues() });

  const onSubmit = form.submit(async (input) => {
    const result = await save.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.mailTemplates.pathKey() });
    alerts.success(MSG.mailTemplateSaved);
    if (result.unknownVariables.length > 0) {
      await alerts.notice(
        "Unbekannte Variablen",
        `${MSG_TEMPLATES.unknownVariables} ${result.unknownVariables.map((v) => `{{${v}}}`).join(", ")}`,
      );
    }
    onClose();
  });

  return (
    <EditDialog
      title={`Vorlage „${template.name}“ bearbeiten`}
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
      pending={save.isPending}
      wide
    >
      <FormField label="Betreff" error={form.errorOf("subject")}>
        <Input {...form.register("subject")} />
      </FormField>
      <Suspense fallback={<p role="status">Editor wird geladen …</p>}>
        <Controller
          control={form.control}
          name="content"
          render={({ field }) => (
            <RichTextEditor label="Inhalt" value={field.value} onChange={field.onChange} />
          )}
        />
      </Suspense>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          onClick={async () => {
            try {
              setPreview(await render.mutateAsync(draft()));
            } catch (error) {
              await showError(error);
            }
          }}
        >
          Vorschau
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={async () => {
            try {
              const { to } = await sendTest.mutateAsync(draft());
              alerts.success(`Die Testmail wurde an ${to} geschickt.`);
            } catch (error) {
              await showError(error);
            }
          }}
        >
          Testmail senden
        </Button>
      </div>
      {preview && (
        <section aria-label="Vorschau">
          <p className="text-sm">
            <strong>Betreff:</strong> {preview.subject}
          </p>
          <iframe
            title="Vorschau der E-Mail"
            sandbox=""
            srcDoc={preview.html}
            className="mt-2 h-80 w-full rounded border"
          />
        </section>
      )}
    </EditDialog>
  );
}

function CopyForm({ options }: { options: { id: number; label: string }[] }) {
  const queryClient = useQueryClient();
  const copy = useMutation(trpc.admin.mailTemplates.copy.mutationOptions());
  const form = useSchemaForm({ schema: ZCopyTemplatesInput, defaultValues: { copy_from: "", copy_to: "" } });
  const onSubmit = form.submit(async (input) => {
    // spec: a browser confirmation that existing templates of the target will be overwritten
    if (!window.confirm("Vorhandene Vorlagen der Zielveranstaltung werden überschrieben. Fortfahren?")) {
      return;
    }
    await copy.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.mailTemplates.pathKey() });
    alerts.success(MSG.mailTemplatesCopied);
  });
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-label="Vorlagen kopieren"
      className="mt-8 flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <FormField label="Von Veranstaltung" error={form.errorOf("copy_from")}>
        <Select {...form.register("copy_from")} options={options} />
      </FormField>
      <FormField label="Nach Veranstaltung" error={form.errorOf("copy_to")}>
        <Select {...form.register("copy_to")} options={options} />
      </FormField>
      <Button type="submit" className="mt-7" disabled={copy.isPending}>
        Vorlagen kopieren
      </Button>
    </form>
  );
}

export function MailTemplatesTab() {
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const [congress, setCongress] = useState("");
  const list = useQuery(
    trpc.admin.mailTemplates.list.queryOptions({ congressId: congress === "" ? null : Number(congress) }),
  );
  const [editing, setEditing] = useState<Template | null>(null);
  const paged = usePaged(list.data ?? []);
  const options = (congresses.data ?? []).map((c) => ({ id: c.id, label: c.title }));
  if (list.isError) {
    return <LoadError what="Die E-Mail-Templates" onRetry={() => void list.refetch()} />;
  }
  return (
    <section aria-label="E-Mail-Templates">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <FormField label="Veranstaltung">
          <Select value={congress} onChange={(e) => setCongress(e.target.value)} options={options} />
        </FormField>
        <Button variant="secondary" onClick={() => setCongress("")}>
          Allgemeine Vorlagen
        </Button>
      </div>
      <DataTable
        label="E-Mail-Templates"
        loading={list.isPending}
        empty="Für diese Auswahl gibt es keine Vorlagen."
        rows={paged.rows}
        columns={[
          { header: "Veranstaltung", cell: (t) => t.congress?.title ?? "Allgemein" },
          { header: "Interner Name", cell: (t) => t.name },
          { header: "Interne Beschreibung", cell: (t) => textOf(t.description) },
          { header: "Betreff", cell: (t) => t.subject },
          {
            header: "Aktionen",
            cell: (t) => (
              <Button
                variant="ghost"
                size="icon"
                aria-label={`${t.name} bearbeiten`}
                onClick={() => setEditing(t)}
              >
                <PencilIcon aria-hidden="true" className="size-4" />
              </Button>
            ),
          },
        ]}
      />
      <Pager page={paged.page} pages={paged.pages} onPage={paged.setPage} total={list.data?.length ?? 0} />
      <CopyForm options={options} />
      {editing && <TemplateDialog template={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
