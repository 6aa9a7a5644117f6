import {
  countOf,
  MSG,
  MSG_TEMPLATES,
  ZCopyTemplatesInput,
  ZMailTemplateCreateInput,
  ZMailTemplateInput,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useState } from "react";
import { AdminResource } from "@/components/admin/admin-resource";
import { FilterSelect, type Filters, fromSearch, useFilters } from "@/components/admin/filters";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { RichTextField } from "@/components/admin/rich-text-field";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { optionsOf, Select, type SelectOption } from "@/components/ui/select";
import { SelectField, TextField } from "@/components/ui/text-field";
import { alerts, showError } from "@/lib/alerts";
import { parseId } from "@/lib/route-params";
import { useSchemaForm } from "@/lib/schema-form";
import { optionalString, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import {
  emptyCopyForm,
  type MailTemplate,
  type NewTemplateForm,
  type TemplateForm,
  templateToForm,
  toTemplateInput,
} from "./-components/admin-forms";

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

type TemplateFilters = Filters<typeof TEMPLATE_FILTERS>;

/** "Es wurde 1 Vorlage übernommen.", "Es wurden 3 Vorlagen übernommen." */
const copiedText = (count: number) =>
  `Es ${count === 1 ? "wurde" : "wurden"} ${countOf(count, "Vorlage", "Vorlagen")} übernommen.`;

function CopyForm({ options, filters }: { options: SelectOption[]; filters: TemplateFilters }) {
  const queryClient = useQueryClient();
  const copy = useMutation(trpc.admin.mailTemplates.copy.mutationOptions());
  const form = useSchemaForm({ schema: ZCopyTemplatesInput, defaultValues: emptyCopyForm });
  const titleOf = (id: number) => options.find((o) => String(o.value) === String(id))?.label ?? "";
  const onSubmit = form.submit(async (input) => {
    // a source without templates is said under it at once: no question about overwriting comes first
    const { names } = await trpcClient.admin.mailTemplates.getCopySource.query({
      congressId: input.copy_from,
    });
    if (names.length === 0) {
      const message = MSG_TEMPLATES.copySourceEmpty.replace("{title}", titleOf(input.copy_from));
      form.setError("copy_from", { type: "server", message }, { shouldFocus: true });
      return;
    }
    // spec: a browser confirmation that existing templates of the target will be overwritten
    if (!window.confirm("Vorhandene Vorlagen der Zielveranstaltung werden überschrieben. Fortfahren?")) {
      return;
    }
    const { copied } = await copy.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.mailTemplates.pathKey() });
    alerts.success(`${MSG.mailTemplatesCopied} ${copiedText(copied)}`);
    // the copies are what the admin wants to see next
    filters.set("congress", String(input.copy_to));
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
          className="min-w-0"
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

/**
 * "Neue Vorlage": an event's own template of one mail, starting as the general template of that mail; once
 * made, the table shows that event's templates, where it is edited.
 */
function NewTemplateEditor({ options, filters }: { options: SelectOption[]; filters: TemplateFilters }) {
  const catalogue = useQuery(trpc.admin.mailTemplates.getCatalogue.queryOptions());
  // only the mails sent about an event: those about the account alone have their general template only
  const starts = (catalogue.data ?? [])
    .filter((m) => m.perEvent)
    .map((m) => ({ value: m.name, label: `${m.name}: ${m.description}` }));
  return (
    <ResourceEditor
      title="Neue Vorlage für eine Veranstaltung"
      description="Die neue Vorlage beginnt als Kopie der allgemeinen Vorlage dieser E-Mail und gilt dann für die gewählte Veranstaltung statt der allgemeinen. Angeboten werden die E-Mails, die zu einer Veranstaltung verschickt werden; E-Mails zum Konto (Passwort, Anmeldelink) haben nur die allgemeine Vorlage."
      schema={ZMailTemplateCreateInput}
      defaultValues={{ congress: filters.applied.congress, name: "" } satisfies NewTemplateForm}
      save={trpcClient.admin.mailTemplates.create.mutate}
      success={(t) => MSG_TEMPLATES.created.replace("{title}", t.congress?.title ?? "")}
      afterSave={async (t) => filters.set("congress", String(t.congress?.id ?? ""))}
      submitLabel="Anlegen"
    >
      {(form) => (
        <>
          <SelectField form={form} name="congress" label="Veranstaltung" options={options} />
          <SelectField form={form} name="name" label="Ausgangspunkt (allgemeine Vorlage)" options={starts} />
        </>
      )}
    </ResourceEditor>
  );
}

/**
 * A page of the templates of the chosen event, or the general ones (the section's loader asks for the one its
 * address names).
 */
const templatesPage = ({ congress } = TEMPLATE_FILTERS, page = 1) =>
  trpc.admin.mailTemplates.getPage.queryOptions({
    congressId: congress === "" ? null : Number(congress),
    page,
  });

export const Route = createFileRoute("/_admin/admin/manage/mail-templates")({
  staticData: { adminSection: { label: "E-Mail-Templates", group: "Kommunikation", position: 8 } },
  // the chosen event's id (none: the general templates)
  validateSearch: (search: Record<string, unknown>): SectionSearch<"congress"> => ({
    congress: parseId(optionalString(search.congress, 10))?.toString(),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(templatesPage(...fromSearch(TEMPLATE_FILTERS, deps))),
  component: MailTemplatesTab,
  errorComponent: LazySectionError,
});

function MailTemplatesTab() {
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
        <div className="flex w-full min-w-0 flex-wrap items-end gap-3 sm:w-auto">
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
      create="Neue Vorlage"
      editor={(t) =>
        t === null ? (
          <NewTemplateEditor options={options} filters={filters} />
        ) : (
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
      <CopyForm options={options} filters={filters} />
    </AdminResource>
  );
}
