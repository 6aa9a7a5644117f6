import { MSG, MSG_TEMPLATES, ZCopyTemplatesInput, ZMailTemplateInput } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { AdminResource } from "@/components/admin/admin-resource";
import { FilterSelect, useFilters } from "@/components/admin/filters";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { RichTextField } from "@/components/admin/rich-text-field";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { optionsOf, Select, type SelectOption } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { alerts, showError } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc, trpcClient } from "@/lib/trpc";
import {
  emptyCopyForm,
  type MailTemplate,
  type TemplateForm,
  templateToForm,
  toTemplateInput,
} from "./admin-forms";

const textOf = (html: string) => new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";

/** Subject, content, and the preview and test mail of the draft as it stands. */
function TemplateFields({
  template,
  form,
}: {
  template: MailTemplate;
  form: SchemaForm<TemplateForm, typeof ZMailTemplateInput>;
}) {
  const [preview, setPreview] = useState<{ subject: string; html: string } | null>(null);
  const render = useMutation(trpc.admin.mailTemplates.preview.mutationOptions());
  const sendTest = useMutation(trpc.admin.mailTemplates.sendTest.mutationOptions());
  const draft = () => ({ name: template.name, ...form.getValues() });
  const tryTo = (run: () => Promise<void>) => async () => {
    try {
      await run();
    } catch (error) {
      await showError(error);
    }
  };
  return (
    <>
      <TextField form={form} name="subject" label="Betreff" />
      <RichTextField control={form.control} name="content" label="Inhalt" />
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          onClick={tryTo(async () => setPreview(await render.mutateAsync(draft())))}
        >
          Vorschau
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={tryTo(async () => {
            const { to } = await sendTest.mutateAsync(draft());
            alerts.success(`Die Testmail wurde an ${to} geschickt.`);
          })}
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
    </>
  );
}

const noticeUnknownVariables = async ({ unknownVariables }: { unknownVariables: string[] }) => {
  if (unknownVariables.length > 0) {
    const list = unknownVariables.map((v) => `{{${v}}}`).join(", ");
    await alerts.notice("Unbekannte Variablen", `${MSG_TEMPLATES.unknownVariables} ${list}`);
  }
};

function CopyForm({ options }: { options: SelectOption[] }) {
  const queryClient = useQueryClient();
  const copy = useMutation(trpc.admin.mailTemplates.copy.mutationOptions());
  const form = useSchemaForm({ schema: ZCopyTemplatesInput, defaultValues: emptyCopyForm });
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
      {(["copy_from", "copy_to"] as const).map((name) => (
        <FormField
          key={name}
          label={name === "copy_from" ? "Von Veranstaltung" : "Nach Veranstaltung"}
          error={form.errorOf(name)}
        >
          <Select {...form.register(name)} options={options} />
        </FormField>
      ))}
      <Button type="submit" className="mt-7" disabled={copy.isPending}>
        Vorlagen kopieren
      </Button>
    </form>
  );
}

const TEMPLATE_FILTERS = { congress: "" };

/** A page of the templates of the chosen event, or the general ones (what the section's loader asks first). */
export const templatesPage = ({ congress } = TEMPLATE_FILTERS, page = 1) =>
  trpc.admin.mailTemplates.getPage.queryOptions({
    congressId: congress === "" ? null : Number(congress),
    page,
  });

export function MailTemplatesTab() {
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const filters = useFilters(TEMPLATE_FILTERS);
  const options = optionsOf(congresses.data, (c) => c.title);
  return (
    <AdminResource<MailTemplate>
      label="E-Mail-Templates"
      list={(page) => templatesPage(filters.applied, page)}
      paging={filters}
      empty="Für diese Auswahl gibt es keine Vorlagen."
      toolbar={
        <div className="flex flex-wrap items-end gap-3">
          <FilterSelect
            filters={filters}
            name="congress"
            label="Veranstaltung"
            options={options}
            placeholder="Bitte wählen …"
          />
          <Button variant="secondary" onClick={() => filters.set("congress", "")}>
            Allgemeine Vorlagen
          </Button>
        </div>
      }
      columns={[
        { header: "Veranstaltung", cell: (t) => t.congress?.title ?? "Allgemein" },
        { header: "Interner Name", cell: (t) => t.name },
        { header: "Interne Beschreibung", cell: (t) => textOf(t.description) },
        { header: "Betreff", cell: (t) => t.subject },
      ]}
      rowName={(t) => t.name}
      editor={(t) =>
        t && (
          <ResourceEditor
            title={`Vorlage „${t.name}“ bearbeiten`}
            schema={ZMailTemplateInput}
            defaultValues={templateToForm(t)}
            toInput={toTemplateInput(t)}
            save={trpcClient.admin.mailTemplates.save.mutate}
            success={MSG.mailTemplateSaved}
            afterSave={noticeUnknownVariables}
            wide
          >
            {(form) => <TemplateFields template={t} form={form} />}
          </ResourceEditor>
        )
      }
    >
      <CopyForm options={options} />
    </AdminResource>
  );
}
