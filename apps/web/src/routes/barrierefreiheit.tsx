import { createFileRoute } from "@tanstack/react-router";
import { LegalPage } from "./-components/legal-page";

export const Route = createFileRoute("/barrierefreiheit")({
  loader: ({ context }) =>
    context.queryClient.prefetchQuery(context.trpc.legal.page.queryOptions({ slug: "barrierefreiheit" })),
  component: () => <LegalPage slug="barrierefreiheit" />,
});
