import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "@/components/layout/page";

export const Route = createFileRoute("/_user/congress-package/$congressPackageId")({
  component: () => <Placeholder title="Kongresspaket" text="Die Inhalte dieses Kongresspakets folgen." />,
});
