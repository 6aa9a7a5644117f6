import { schema } from "@app/db";
import { berlinDate, buildCheckoutUrl, type CheckoutCategory, congressTiming, MSG } from "@app/shared";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { loadViewer, type ViewerDeps } from "./viewer";

const notFound = (what: string) =>
  new AppError("NOT_FOUND", what, MSG.productNotFound, MSG.defaultErrorTitle);
const notOffered = (what: string) =>
  new AppError("FORBIDDEN", what, MSG.productNotOffered, MSG.defaultErrorTitle, "not-offered");

/**
 * Looks the product up and builds the checkout address with the buyer's data and custom
 * (`uid-{digistoreHash}|pid-{id}|cat-{category}`); the browser is then sent there.
 */
export async function checkoutUrl(
  ctx: ViewerDeps,
  { userId, category, id }: { userId: number; category: CheckoutCategory; id: number },
): Promise<{ url: string; name: string }> {
  const viewer = await loadViewer(ctx, userId);
  const buyer = { ...viewer };
  const productUrl = ctx.env.DIGISTORE_PRODUCT_URL;
  if (category === "pac") {
    const [pkg] = await ctx.db
      .select()
      .from(schema.congressPackages)
      .where(eq(schema.congressPackages.id, id));
    if (!pkg) {
      throw notFound(`package ${id}`);
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
  const [congress] = await ctx.db.select().from(schema.congresses).where(eq(schema.congresses.id, id));
  if (!congress || (!congress.visible && !viewer.isStaff)) {
    throw notFound(`congress ${id}`);
  }
  const productId = category === "tic" ? congress.digistoreIdTicket : congress.digistoreIdTicketAndPackage;
  if (productId <= 0 || congressTiming(congress.firstDay, congress.lastDay, berlinDate()).inPast) {
    throw notOffered(`congress ${id} offers no ${category}`);
  }
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
