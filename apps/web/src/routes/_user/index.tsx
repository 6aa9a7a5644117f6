import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/")({
  component: () => (
    <Placeholder title="Übersicht" text="Ihre Veranstaltungen und Kongresspakete erscheinen hier in Kürze." />
  ),
});
