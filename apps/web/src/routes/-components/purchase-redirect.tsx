import type { CheckoutCategory } from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { Page } from "@/components/layout/page";
import { showError } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

/** Leaves for the checkout in the same tab, so its return lands on the overview. */
function goTo(url: string) {
  window.location.assign(url);
}

/**
 * The purchase redirect screens: the server looks the product up and builds the checkout address; on failure
 * its title and detail are shown and the visitor goes to the overview.
 */
export function PurchaseRedirect({ category, id }: { category: CheckoutCategory; id: string }) {
  const navigate = useNavigate();
  const checkout = useQuery({
    ...trpc.checkout.url.queryOptions({ category, id: Number(id) }),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    if (checkout.data) {
      goTo(checkout.data.url);
    }
  }, [checkout.data]);
  useEffect(() => {
    if (checkout.isError) {
      void showError(checkout.error).then(() => navigate({ to: "/" }));
    }
  }, [checkout.isError, checkout.error, navigate]);

  return (
    <Page title="Weiterleitung zur Kasse" narrow>
      <p role="status" className="text-slate-700">
        {checkout.data
          ? `Sie werden jetzt zur Kasse für „${checkout.data.name}“ weitergeleitet …`
          : checkout.isError
            ? ""
            : "Einen Moment bitte, das Produkt wird gesucht …"}
      </p>
      {checkout.data && (
        <p className="mt-4 text-sm text-slate-600">
          Falls nichts passiert:{" "}
          <a href={checkout.data.url} className="text-brand-700 underline underline-offset-4">
            weiter zur Kasse
          </a>
        </p>
      )}
    </Page>
  );
}
