import type { CheckoutCategory } from "@app/shared";
import { Page } from "@/components/layout/page";
import { showError } from "@/lib/alerts";
import { loadOrOverview } from "@/lib/route-loaders";
import type { RouterContext } from "../__root";

export interface CheckoutAnswer {
  url: string;
  name: string;
}

/**
 * The loader of the purchase redirect screens: the server looks the product up and builds the checkout
 * address, and the visitor leaves for it in the same tab (so its return lands on the overview); on failure
 * its title and detail are shown, then the overview. A hover asks nothing: the address is built per visit.
 */
export async function loadCheckout(
  { context, preload }: { context: RouterContext; preload: boolean },
  category: CheckoutCategory,
  id: number,
): Promise<CheckoutAnswer | undefined> {
  if (preload) {
    return undefined;
  }
  const answer = await loadOrOverview(
    false,
    () =>
      context.queryClient.fetchQuery({
        ...context.trpc.checkout.getUrl.queryOptions({ category, id }),
        staleTime: 0,
        gcTime: 0,
      }),
    showError,
  );
  if (answer) {
    window.location.assign(answer.url);
  }
  return answer;
}

function Redirect({ children }: { children: React.ReactNode }) {
  return (
    <Page title="Weiterleitung zur Kasse" narrow>
      {children}
    </Page>
  );
}

/** While the server looks the product up. */
export function PurchasePending() {
  return (
    <Redirect>
      <p role="status" className="text-slate-700">
        Einen Moment bitte, das Produkt wird gesucht …
      </p>
    </Redirect>
  );
}

/** On the way to the checkout. */
export function PurchaseRedirect({ checkout }: { checkout: CheckoutAnswer | undefined }) {
  if (!checkout) {
    return <PurchasePending />;
  }
  return (
    <Redirect>
      <p role="status" className="text-slate-700">
        Sie werden jetzt zur Kasse für „{checkout.name}“ weitergeleitet …
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Falls nichts passiert:{" "}
        <a href={checkout.url} className="text-brand-700 underline underline-offset-4">
          weiter zur Kasse
        </a>
      </p>
    </Redirect>
  );
}
