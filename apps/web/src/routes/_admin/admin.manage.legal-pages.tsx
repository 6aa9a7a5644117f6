import {
  formatGermanDateTime,
  LEGAL_PAGE_TITLES,
  LEGAL_PAGES,
  type LegalPageSlug,
  MSG_PRIVACY,
  ZLegalPageInput,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { ExternalLinkIcon } from "lucide-react";
import { useState } from "react";
import { LoadError } from "@/components/admin/load-error";
import { RichTextField } from "@/components/admin/rich-text-field";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Select } from "@/components/ui/select";
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

/** The page the section opens with, whose text its loader asks for. */
const FIRST_PAGE: LegalPageSlug = "datenschutz";

export const Route = createFileRoute("/_admin/admin/manage/legal-pages")({
  staticData: {
    adminSection: { label: "Rechtliche Seiten", group: "System", position: 10, what: "Die Seiteninhalte" },
  },
  loader: ({ context: { queryClient } }) =>
    queryClient.ensureQueryData(trpc.legal.getPage.queryOptions({ slug: FIRST_PAGE })),
  component: LegalPagesTab,
  errorComponent: LazySectionError,
});

/** Datenschutz, Impressum and the accessibility statement, edited here and shown to everybody. */
function LegalPagesTab() {
  const [slug, setSlug] = useState<LegalPageSlug>(FIRST_PAGE);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        Diese Seiten sind im Fußbereich jeder Seite verlinkt. Bis zum ersten Speichern wird ein Starttext
        angezeigt; ergänzen Sie die Angaben in eckigen Klammern.
      </p>
      <FormField label="Seite" className="max-w-sm">
        <Select
          placeholder={null}
          value={slug}
          onChange={(event) => setSlug(event.target.value as LegalPageSlug)}
          options={LEGAL_PAGES.map((page) => ({ value: page, label: LEGAL_PAGE_TITLES[page] }))}
        />
      </FormField>
      {/* a new editor per page: its content is its own state */}
      <LegalPageEditor key={slug} slug={slug} />
    </div>
  );
}

function LegalPageEditor({ slug }: { slug: LegalPageSlug }) {
  const page = useQuery(trpc.legal.getPage.queryOptions({ slug }));
  if (page.isError) {
    return <LoadError what="Die Seiteninhalte" onRetry={() => void page.refetch()} />;
  }
  if (!page.data) {
    return <p role="status">Seite wird geladen …</p>;
  }
  return <LegalPageForm slug={slug} page={page.data} />;
}

type LegalPage = RouterOutputs["legal"]["getPage"];

function LegalPageForm({ slug, page }: { slug: LegalPageSlug; page: LegalPage }) {
  const queryClient = useQueryClient();
  const save = useMutation(trpc.admin.legalPages.save.mutationOptions());
  const form = useSchemaForm({
    schema: ZLegalPageInput,
    defaultValues: { html: page.html },
    toInput: (values) => ({ slug, ...values }),
  });
  const error = form.errorOf("html");
  const onSubmit = form.submit(async (input) => {
    const saved = await save.mutateAsync(input);
    queryClient.setQueryData(trpc.legal.getPage.queryKey({ slug }), saved);
    form.reset({ html: saved.html });
    alerts.success(MSG_PRIVACY.legalPageSaved);
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
      <p className="text-sm text-slate-700" aria-live="polite">
        {page.updatedAt
          ? `Zuletzt gespeichert am ${formatGermanDateTime(new Date(page.updatedAt))}.`
          : "Es wird noch der Starttext angezeigt."}
      </p>
      <RichTextField control={form.control} name="html" label={LEGAL_PAGE_TITLES[slug]} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Wird gespeichert …" : "Speichern"}
        </Button>
        <Button asChild variant="secondary">
          <a href={`/${slug}`} target="_blank" rel="noopener noreferrer">
            <ExternalLinkIcon aria-hidden="true" className="size-4" />
            Seite ansehen<span className="sr-only"> (öffnet in neuem Tab)</span>
          </a>
        </Button>
      </div>
    </form>
  );
}
