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
} from "@app/shared";
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { hasPaidTicket } from "../commerce/grant";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congresses, congressPackages, congressPackageOrders } = schema;

type CongressRow = typeof congresses.$inferSelect;
type PackageRow = typeof congressPackages.$inferSelect;

const notFound = (what: string) =>
  new AppError("NOT_FOUND", what, MSG.productNotFound, MSG.defaultErrorTitle);
const notOffered = (what: string) =>
  new AppError("FORBIDDEN", what, MSG.productNotOffered, MSG.defaultErrorTitle, "not-offered");
const alreadyBought = (what: string, text: string, name: string, links: ErrorLink[]) =>
  new AppError(
    "CONFLICT",
    what,
    fillMessage(text, { name }),
    MSG.alreadyBoughtTitle,
    "already-bought",
    links,
  );

/** The ids among `packageIds` the user has a paid order for (spec: bought means paid). */
export async function paidPackageIds(db: DbOrTx, userId: number, packageIds: number[]): Promise<Set<number>> {
  if (packageIds.length === 0) {
    return new Set();
  }
  const rows = await db
    .selectDistinct({ id: congressPackageOrders.congressPackageId })
    .from(congressPackageOrders)
    .where(
      and(
        eq(congressPackageOrders.userId, userId),
        inArray(congressPackageOrders.congressPackageId, packageIds),
        eq(congressPackageOrders.status, "paid"),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

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
 * (decision 83): a paid ticket refuses both; a paid package of the event refuses ticket-plus-package. The
 * refusal links to what was bought and offers the half still missing on its own.
 */
async function refuseTicketBoughtTwice(
  db: DbOrTx,
  viewer: Viewer,
  category: "tic" | "ticpac",
  congress: CongressRow,
  today: IsoDate,
): Promise<void> {
  const ticketPaid = await hasPaidTicket(db, viewer.id, congress.id);
  const what = `${category} ${congress.id} already bought by user ${viewer.id}`;
  if (category === "tic") {
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
  const paid = await paidPackageIds(
    db,
    viewer.id,
    packages.map((pkg) => pkg.id),
  );
  const open = packages.filter((pkg) => !paid.has(pkg.id));
  const bought = packages.filter((pkg) => paid.has(pkg.id)).map(packageLink);
  if (ticketPaid) {
    const text = open.length === 0 ? MSG.alreadyBoughtTicketPackage : MSG.alreadyBoughtTicketOffersPackage;
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
  const buyer = { ...viewer };
  const productUrl = ctx.env.DIGISTORE_PRODUCT_URL;
  if (category === "pac") {
    const [pkg] = await ctx.db.select().from(congressPackages).where(eq(congressPackages.id, id));
    if (!pkg) {
      throw notFound(`package ${id}`);
    }
    if ((await paidPackageIds(ctx.db, viewer.id, [pkg.id])).size > 0) {
      throw alreadyBought(
        `pac ${id} already bought by user ${viewer.id}`,
        MSG.alreadyBoughtPackage,
        pkg.name,
        [packageLink(pkg)],
      );
    }
    const url = buildCheckoutUrl({
      productUrl,
      productId: pkg.externalId,
      id,
      category,
      buyer,
      extraParameters: pkg.extraParameters,
    });
    return { url, name: pkg.name };
  }
  const [congress] = await ctx.db.select().from(congresses).where(eq(congresses.id, id));
  if (!congress || (!congress.visible && !viewer.isStaff)) {
    throw notFound(`congress ${id}`);
  }
  const productId = category === "tic" ? congress.digistoreIdTicket : congress.digistoreIdTicketAndPackage;
  const today = berlinDate(ctx.clock.now());
  if (productId <= 0 || congressTiming(congress.firstDay, congress.lastDay, today).inPast) {
    throw notOffered(`congress ${id} offers no ${category}`);
  }
  await refuseTicketBoughtTwice(ctx.db, viewer, category, congress, today);
  const url = buildCheckoutUrl({
    productUrl,
    productId,
    id,
    category,
    buyer,
    extraParameters: congress.extraParameters,
  });
  return { url, name: congress.title };
}
