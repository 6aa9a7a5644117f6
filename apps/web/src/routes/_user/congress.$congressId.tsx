import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/congress/$congressId")({
  component: () => (
    <Placeholder title="Videos der Veranstaltung" text="Die Videos dieser Veranstaltung folgen." />
  ),
});
