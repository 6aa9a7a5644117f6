import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_admin/admin/manage")({
  component: () => (
    <Placeholder
      title="Administration"
      text="Die Verwaltung von Veranstaltungen, Paketen, Bestellungen, Inhalten, Benutzer:innen und E-Mail-Templates folgt."
    />
  ),
});
