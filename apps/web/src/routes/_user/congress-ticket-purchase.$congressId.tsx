import { createFileRoute } from "@tanstack/react-router";
import { PurchaseRedirect } from "../-components/purchase-redirect";

export const Route = createFileRoute("/_user/congress-ticket-purchase/$congressId")({ component: Purchase });

function Purchase() {
  const { congressId } = Route.useParams();
  return <PurchaseRedirect category="tic" id={congressId} />;
}
