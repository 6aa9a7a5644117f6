import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/participation/$congressId")({
  component: () => (
    <Placeholder title="Anmeldung zur Veranstaltung" text="Die Anmeldung zur Veranstaltung folgt." />
  ),
});
