import { createFileRoute } from "@tanstack/react-router";
import { PurchaseRedirect } from "../-components/purchase-redirect";

export const Route = createFileRoute("/_user/congress-package-purchase/$congressPackageId")({
  component: Purchase,
});

function Purchase() {
  const { congressPackageId } = Route.useParams();
  return <PurchaseRedirect category="pac" id={congressPackageId} />;
}
