import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/congress-ticket-package-purchase/$congressId")({
  component: () => (
    <Placeholder
      title="Weiterleitung zur Kasse"
      text="Die Weiterleitung zum Kauf von Ticket und Kongresspaket folgt."
    />
  ),
});
