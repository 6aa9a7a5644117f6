import { createFileRoute } from "@tanstack/react-router";
import { LegalPage } from "./-components/legal-page";

export const Route = createFileRoute("/datenschutz")({
  loader: ({ context }) =>
    context.queryClient.prefetchQuery(context.trpc.legal.page.queryOptions({ slug: "datenschutz" })),
  component: () => <LegalPage slug="datenschutz" />,
});
