import type { CheckoutCategory, ErrorBody, ErrorLink } from "@app/shared";
import { Link } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { errorBody, errorReason, showError } from "@/lib/alerts";
import { actsOnVisit, loadOrOverview } from "@/lib/route-loaders";
import type { RouterContext } from "../__root";

export interface CheckoutAnswer {
  url: string;
  name: string;
}

/** The server refused because the visitor has paid for it already (ADR 0083): what to say, where to go. */
export interface BoughtAlready extends ErrorBody {
  links: ErrorLink[];
}

type PurchaseState = CheckoutAnswer | { bought: BoughtAlready } | undefined;

/** The refusal's ways on; only paths of this app are taken (the server sends nothing else). */
function boughtAlready(error: unknown): BoughtAlready | undefined {
  if (errorReason(error) !== "already-bought" || !(error instanceof TRPCClientError)) {
    return undefined;
  }
  const links = (error.data as { links?: unknown } | undefined)?.links;
  const valid = Array.isArray(links)
    ? links.filter(
        (link): link is ErrorLink =>
          typeof link?.label === "string" && typeof link?.href === "string" && /^\/(?!\/)/.test(link.href),
      )
    : [];
  return { ...errorBody(error), links: valid };
}

/**
 * The loader of the purchase redirect screens: the server looks the product up and builds the checkout
 * address, and the visitor leaves for it in the same tab (so its return lands on the overview), replacing
 * this screen in the history: Back from the checkout returns to the page before it, not to this redirect.
 * Something bought already is shown here with its links; any other refusal shows its title and detail,
 * then the overview. The route is never preloaded (`actsOnVisit`): the address is built per visit.
 */
export async function loadCheckout(
  { context }: { context: RouterContext },
  category: CheckoutCategory,
  id: number,
): Promise<PurchaseState> {
  const answer = await loadOrOverview(
    false,
    async () => {
      try {
        return await context.queryClient.fetchQuery({
          ...context.trpc.checkout.getUrl.queryOptions({ category, id }),
          staleTime: 0,
          gcTime: 0,
        });
      } catch (error) {
        const bought = boughtAlready(error);
        if (bought) {
          return { bought };
        }
        throw error;
      }
    },
    showError,
  );
  if (answer && "url" in answer) {
    window.location.replace(answer.url);
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

function Bought({ bought }: { bought: BoughtAlready }) {
  const links = bought.links.some((link) => link.href === "/")
    ? bought.links
    : [...bought.links, { label: "Zur Übersicht", href: "/" }];
  return (
    <Page title={bought.title} narrow>
      <p role="status" className="text-slate-700">
        {bought.detail}
      </p>
      <ul className="mt-6 flex flex-wrap gap-3">
        {links.map((link, i) => (
          <li key={link.href}>
            <Button asChild variant={i === 0 ? "default" : "secondary"}>
              {/* a path of this app from the server's answer, checked in boughtAlready */}
              <Link to={link.href as "/"}>{link.label}</Link>
            </Button>
          </li>
        ))}
      </ul>
    </Page>
  );
}

/** What the three purchase routes share: no preload (their loader builds a checkout address), the waiting screen. */
export const purchaseRoute = { ...actsOnVisit, pendingComponent: PurchasePending } as const;

/** On the way to the checkout, or why not. */
export function PurchaseRedirect({ checkout }: { checkout: PurchaseState }) {
  if (!checkout) {
    return <PurchasePending />;
  }
  if ("bought" in checkout) {
    return <Bought bought={checkout.bought} />;
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
