import { LEGAL_PAGE_TITLES, type LegalPageSlug } from "@app/shared";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Page } from "@/components/layout/page";
import { SafeHtml } from "@/lib/safe-html";
import { type Trpc, trpc } from "@/lib/trpc";

/** Formatting for the admins' HTML (headings, lists, links) without a typography plugin. */
const LEGAL_TEXT_CLASSES =
  "max-w-3xl space-y-4 break-words text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-4 [&_address]:not-italic [&_h2]:pt-2 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6";

export const legalPageQuery = (api: Trpc, slug: LegalPageSlug) => api.legal.getPage.queryOptions({ slug });

/** Datenschutz, Impressum or the accessibility statement as the operators wrote it (sanitised by the API). */
export function LegalPage({ slug }: { slug: LegalPageSlug }) {
  const { data } = useSuspenseQuery(legalPageQuery(trpc, slug));
  return (
    <Page title={LEGAL_PAGE_TITLES[slug]}>
      <SafeHtml className={LEGAL_TEXT_CLASSES} html={data.html} />
    </Page>
  );
}
