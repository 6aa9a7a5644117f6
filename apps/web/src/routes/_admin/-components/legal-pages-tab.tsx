import {
  formatGermanDateTime,
  LEGAL_PAGE_TITLES,
  LEGAL_PAGES,
  type LegalPageSlug,
  MSG_PRIVACY,
} from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLinkIcon } from "lucide-react";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { LoadError } from "@/components/admin/admin-kit";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { alerts, showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

const RichTextEditor = lazy(() =>
  import("@/components/admin/rich-text-editor").then((m) => ({ default: m.RichTextEditor })),
);

/** Datenschutz, Impressum and the accessibility statement, edited here and shown to everybody. */
export function LegalPagesTab() {
  const [slug, setSlug] = useState<LegalPageSlug>("datenschutz");
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        Diese Seiten sind im Fußbereich jeder Seite verlinkt. Bis zum ersten Speichern wird ein Starttext
        angezeigt; ergänzen Sie die Angaben in eckigen Klammern.
      </p>
      <FormField label="Seite" className="max-w-sm">
        <select
          className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
          value={slug}
          onChange={(event) => setSlug(event.target.value as LegalPageSlug)}
        >
          {LEGAL_PAGES.map((page) => (
            <option key={page} value={page}>
              {LEGAL_PAGE_TITLES[page]}
            </option>
          ))}
        </select>
      </FormField>
      {/* a new editor per page: its content is its own state */}
      <LegalPageEditor key={slug} slug={slug} />
    </div>
  );
}

function LegalPageEditor({ slug }: { slug: LegalPageSlug }) {
  const queryClient = useQueryClient();
  const page = useQuery(trpc.legal.page.queryOptions({ slug }));
  const save = useMutation(trpc.admin.legalPages.save.mutationOptions());
  const [html, setHtml] = useState<string>();

  if (page.isError) {
    return <LoadError what="Die Seiteninhalte" onRetry={() => void page.refetch()} />;
  }
  if (!page.data) {
    return <p role="status">Seite wird geladen …</p>;
  }
  const content = html ?? page.data.html;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await save.mutateAsync({ slug, html: content });
      queryClient.setQueryData(trpc.legal.page.queryKey({ slug }), saved);
      setHtml(undefined);
      alerts.success(MSG_PRIVACY.legalPageSaved);
    } catch (error) {
      await showError(error);
    }
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-sm text-slate-700" aria-live="polite">
        {page.data.updatedAt
          ? `Zuletzt gespeichert am ${formatGermanDateTime(new Date(page.data.updatedAt))}.`
          : "Es wird noch der Starttext angezeigt."}
      </p>
      <Suspense fallback={<p role="status">Editor wird geladen …</p>}>
        <RichTextEditor label={LEGAL_PAGE_TITLES[slug]} value={content} onChange={setHtml} />
      </Suspense>
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
