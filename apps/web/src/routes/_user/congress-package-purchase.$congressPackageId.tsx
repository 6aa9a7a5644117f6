import { createFileRoute } from "@tanstack/react-router";
import { idParams } from "@/lib/route-params";
import { loadCheckout, PurchaseRedirect, purchaseRoute } from "../-components/purchase-redirect";

export const Route = createFileRoute("/_user/congress-package-purchase/$congressPackageId")({
  params: idParams("congressPackageId"),
  loader: (options) => loadCheckout(options, "pac", options.params.congressPackageId),
  ...purchaseRoute,
  component: () => <PurchaseRedirect checkout={Route.useLoaderData()} />,
});
