import { createFileRoute } from "@tanstack/react-router";
import { LegalPage, legalPageQuery } from "./-components/legal-page";

export const Route = createFileRoute("/impressum")({
  loader: ({ context }) => context.queryClient.ensureQueryData(legalPageQuery(context.trpc, "impressum")),
  component: () => <LegalPage slug="impressum" />,
});
