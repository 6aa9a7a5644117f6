import { fillMessage } from "./congresses";
import type { CheckoutCategory } from "./constants";
import { MSG } from "./messages";

/** What the paid orders of one checkout purchase grant (the server says: `checkout.getReturnState`). */
export interface CheckoutUnlocked {
  /** the ticket, and with it the sign-up for the event */
  ticket: boolean;
  /** the names of the packages unlocked */
  packages: string[];
}

/** What each checkout category sells (spec section 7): the ticket, a package, or both. */
const PROMISED: Record<CheckoutCategory, { ticket: boolean; package: boolean }> = {
  pac: { ticket: false, package: true },
  tic: { ticket: true, package: false },
  ticpac: { ticket: true, package: true },
};

/**
 * The success dialog after the return from the checkout (`/?custom=pid-..|cat-..`) once the payment
 * notification arrived: thanks for what this purchase unlocked, and nothing else. A part the category
 * sells that was not unlocked is said: the event has no package, or the payment did not include it.
 * `name` is the event's title (ticket) or the package's name (package); null when nothing was unlocked.
 */
export function checkoutReturnMessage(
  category: CheckoutCategory,
  state: { name: string; unlocked: CheckoutUnlocked; eventHasPackage: boolean },
): { title: string; detail: string } | null {
  const { ticket, packages } = state.unlocked;
  if (!ticket && packages.length === 0) {
    return null;
  }
  const thanks =
    ticket && packages.length > 0
      ? fillMessage(MSG.checkoutReturnTicketPackage, { name: state.name })
      : ticket
        ? fillMessage(MSG.checkoutReturnTicket, { name: state.name })
        : fillMessage(MSG.checkoutReturnPackage, { name: packages.join("“, „") });
  const promised = PROMISED[category];
  const missing = [
    promised.ticket && !ticket ? MSG.checkoutReturnTicketNotIncluded : null,
    promised.package && packages.length === 0
      ? state.eventHasPackage
        ? MSG.checkoutReturnPackageNotIncluded
        : MSG.checkoutReturnNoPackage
      : null,
  ].filter((text) => text !== null);
  return { title: MSG.checkoutReturnTitle, detail: [thanks, ...missing].join(" ") };
}

/**
 * The notice while the payment notification has not arrived: being processed, or (after the wait) delayed.
 * The product's name is in „…“ once the server said it; before that the notice names no product.
 */
export function checkoutPendingMessage(
  stage: "processing" | "delayed",
  name: string | undefined,
): { title: string; detail: string } {
  if (stage === "processing") {
    return {
      title: MSG.checkoutProcessingTitle,
      detail:
        name === undefined ? MSG.checkoutProcessingUnnamed : fillMessage(MSG.checkoutProcessing, { name }),
    };
  }
  return {
    title: MSG.checkoutDelayedTitle,
    detail: name === undefined ? MSG.checkoutDelayedUnnamed : fillMessage(MSG.checkoutDelayed, { name }),
  };
}
