import { type DbOrTx, schema } from "@app/db";
import {
  berlinDate,
  buildCheckoutUrl,
  type CheckoutCategory,
  congressTiming,
  type ErrorLink,
  fillMessage,
  type IsoDate,
  MSG,
  type OrderKind,
  REFUSALS,
} from "@app/shared";
import { eq } from "drizzle-orm";
import { AppError, refuse } from "../../lib/app-error";
import { CATEGORY_ORDERS, hasPaid, paidProductIds } from "../commerce/order-kinds";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congresses, congressPackages } = schema;

type CongressRow = typeof congresses.$inferSelect;
type PackageRow = typeof congressPackages.$inferSelect;

const notFound = (what: string) => refuse(REFUSALS.productNotFound, what);
const notOffered = (what: string) => refuse(REFUSALS.productNotOffered, what, "not-offered");
const alreadyBought = (what: string, text: string, name: string, links: ErrorLink[]) =>
  new AppError(
    "CONFLICT",
    what,
    fillMessage(text, { name }),
    MSG.alreadyBoughtTitle,
    "already-bought",
    links,
  );

const packageLink = (pkg: Pick<PackageRow, "id">): ErrorLink => ({
  label: "Zum Kongresspaket",
  href: `/congress-package/${pkg.id}`,
});
const buyPackageLink = (pkg: Pick<PackageRow, "id" | "name">): ErrorLink => ({
  label: `„${pkg.name}“ kaufen`,
  href: `/congress-package-purchase/${pkg.id}`,
});

/** Where a bought ticket is used: the videos while a (non-webinar) event runs, else its card on the overview. */
function ticketLink(congress: CongressRow, today: IsoDate): ErrorLink {
  const { inProgress } = congressTiming(congress.firstDay, congress.lastDay, today);
  return inProgress && !congress.webinar
    ? { label: "Zu den Videos", href: `/congress/${congress.id}` }
    : { label: "Zur Übersicht", href: "/" };
}

/**
 * Refuses a ticket or ticket-plus-package purchase that would charge the visitor again for something paid
 * (ADR 0083): a paid ticket refuses both; a paid package of the event refuses ticket-plus-package. The
 * refusal links to what was bought and offers the half still missing on its own, or says that the event
 * has no package.
 */
async function refuseTicketBoughtTwice(
  db: DbOrTx,
  viewer: Viewer,
  category: CheckoutCategory,
  congress: CongressRow,
  today: IsoDate,
): Promise<void> {
  const ticketPaid = await hasPaid(db, "ticket", viewer.id, congress.id);
  const what = `${category} ${congress.id} already bought by user ${viewer.id}`;
  if (!CATEGORY_ORDERS[category].withEventPackages) {
    if (ticketPaid) {
      throw alreadyBought(what, MSG.alreadyBoughtTicket, congress.title, [ticketLink(congress, today)]);
    }
    return;
  }
  const packages = await db
    .select({ id: congressPackages.id, name: congressPackages.name })
    .from(congressPackages)
    .where(eq(congressPackages.congressId, congress.id))
    .orderBy(congressPackages.id);
  const paid = await paidProductIds(
    db,
    "package",
    viewer.id,
    packages.map((pkg) => pkg.id),
  );
  const open = packages.filter((pkg) => !paid.has(pkg.id));
  const bought = packages.filter((pkg) => paid.has(pkg.id)).map(packageLink);
  if (ticketPaid) {
    // what is owned, and what there is not: an event without a package has only the ticket to sell
    const text =
      packages.length === 0
        ? MSG.alreadyBoughtTicketNoPackage
        : open.length === 0
          ? MSG.alreadyBoughtTicketPackage
          : MSG.alreadyBoughtTicketOffersPackage;
    throw alreadyBought(what, text, congress.title, [
      ticketLink(congress, today),
      ...bought,
      ...open.map(buyPackageLink),
    ]);
  }
  if (paid.size > 0) {
    const ticketOffered = congress.digistoreIdTicket > 0;
    const offers = [
      ...(ticketOffered
        ? [{ label: "Ticket kaufen", href: `/congress-ticket-purchase/${congress.id}` }]
        : []),
      ...open.map(buyPackageLink),
    ];
    const text = ticketOffered ? MSG.alreadyBoughtPackageOffersTicket : MSG.alreadyBoughtPackageNoTicket;
    throw alreadyBought(what, text, congress.title, [...bought, ...offers]);
  }
}

type Buy = (
  ctx: ViewerDeps,
  viewer: Viewer,
  category: CheckoutCategory,
  id: number,
) => Promise<{ url: string; name: string }>;

/** How each kind of order is bought: a package under its own checkout id, a ticket under its event's. */
const BUY: Record<OrderKind, Buy> = {
  package: async (ctx, viewer, category, id) => {
    const [pkg] = await ctx.db.select().from(congressPackages).where(eq(congressPackages.id, id));
    if (!pkg) {
      throw notFound(`package ${id}`);
    }
    if (await hasPaid(ctx.db, "package", viewer.id, pkg.id)) {
      throw alreadyBought(
        `pac ${id} already bought by user ${viewer.id}`,
        MSG.alreadyBoughtPackage,
        pkg.name,
        [packageLink(pkg)],
      );
    }
    const url = buildCheckoutUrl({
      productUrl: ctx.env.DIGISTORE_PRODUCT_URL,
      productId: pkg.externalId,
      id,
      category,
      buyer: { ...viewer },
      extraParameters: pkg.extraParameters,
    });
    return { url, name: pkg.name };
  },
  ticket: async (ctx, viewer, category, id) => {
    const [congress] = await ctx.db.select().from(congresses).where(eq(congresses.id, id));
    if (!congress || (!congress.visible && !viewer.isStaff)) {
      throw notFound(`congress ${id}`);
    }
    const productId = CATEGORY_ORDERS[category].congressCheckoutId(congress);
    const today = berlinDate(ctx.clock.now());
    if (productId <= 0 || congressTiming(congress.firstDay, congress.lastDay, today).inPast) {
      throw notOffered(`congress ${id} offers no ${category}`);
    }
    await refuseTicketBoughtTwice(ctx.db, viewer, category, congress, today);
    const url = buildCheckoutUrl({
      productUrl: ctx.env.DIGISTORE_PRODUCT_URL,
      productId,
      id,
      category,
      buyer: { ...viewer },
      extraParameters: congress.extraParameters,
    });
    return { url, name: congress.title };
  },
};

/**
 * Looks the product up and builds the checkout address with the buyer's data and custom
 * (`uid-{digistoreHash}|pid-{id}|cat-{category}`); the browser is then sent there. Something the visitor
 * has paid for already is refused (409, reason `already-bought`) with links to it.
 */
export async function checkoutUrl(
  ctx: ViewerDeps,
  { userId, category, id }: { userId: number; category: CheckoutCategory; id: number },
): Promise<{ url: string; name: string }> {
  const viewer = await loadViewer(ctx, userId);
  return BUY[CATEGORY_ORDERS[category].kind](ctx, viewer, category, id);
}
