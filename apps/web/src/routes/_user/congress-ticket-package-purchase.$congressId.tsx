import { createFileRoute } from "@tanstack/react-router";
import { idParams } from "@/lib/route-params";
import { loadCheckout, PurchaseRedirect, purchaseRoute } from "../-components/purchase-redirect";

export const Route = createFileRoute("/_user/congress-ticket-package-purchase/$congressId")({
  params: idParams("congressId"),
  loader: (options) => loadCheckout(options, "ticpac", options.params.congressId),
  ...purchaseRoute,
  component: () => <PurchaseRedirect checkout={Route.useLoaderData()} />,
});
