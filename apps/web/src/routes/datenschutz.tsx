import { createFileRoute } from "@tanstack/react-router";
import { LegalPage, legalPageQuery } from "./-components/legal-page";

export const Route = createFileRoute("/datenschutz")({
  loader: ({ context }) => context.queryClient.ensureQueryData(legalPageQuery(context.trpc, "datenschutz")),
  component: () => <LegalPage slug="datenschutz" />,
});
