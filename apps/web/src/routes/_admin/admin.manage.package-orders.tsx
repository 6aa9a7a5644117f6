import { SEARCH_MAX } from "@app/shared/constants";
import { createFileRoute } from "@tanstack/react-router";
import { LazySectionError } from "@/components/lazy-route-error";
import { searchAndPage } from "@/lib/search";
import { OrdersTab, ordersLoader } from "./-components/orders-tab";

export const Route = createFileRoute("/_admin/admin/manage/package-orders")({
  staticData: { adminSection: { label: "Paketbestellungen", group: "Verkauf", position: 4 } },
  validateSearch: searchAndPage(SEARCH_MAX.orders, 1_000_000),
  loaderDeps: ({ search }) => search,
  loader: ordersLoader("package"),
  component: () => <OrdersTab kind="package" />,
  errorComponent: LazySectionError,
});
