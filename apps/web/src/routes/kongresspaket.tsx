import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/kongresspaket")({
  component: () => <Placeholder title="Kongresspakete" text="Hier stellen wir unsere Kongresspakete vor." />,
});
