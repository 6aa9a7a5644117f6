import { createFileRoute } from "@tanstack/react-router";
import { LegalPage, legalPageQuery } from "./-components/legal-page";

export const Route = createFileRoute("/barrierefreiheit")({
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(legalPageQuery(context.trpc, "barrierefreiheit")),
  component: () => <LegalPage slug="barrierefreiheit" />,
});
