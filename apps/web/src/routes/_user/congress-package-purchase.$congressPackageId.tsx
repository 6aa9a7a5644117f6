import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/congress-package-purchase/$congressPackageId")({
  component: () => (
    <Placeholder
      title="Weiterleitung zur Kasse"
      text="Die Weiterleitung zum Kauf des Kongresspakets folgt."
    />
  ),
});
