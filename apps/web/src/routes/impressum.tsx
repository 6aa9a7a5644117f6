import { createFileRoute } from "@tanstack/react-router";
import { LegalPage } from "./-components/legal-page";

export const Route = createFileRoute("/impressum")({
  loader: ({ context }) =>
    context.queryClient.prefetchQuery(context.trpc.legal.page.queryOptions({ slug: "impressum" })),
  component: () => <LegalPage slug="impressum" />,
});
