import { schema } from "@app/db";
import { type CheckoutCategory, MSG } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { hasPaidTicket } from "../commerce/grant";
import { paidPackageIds } from "./checkout";
import { loadViewer, type ViewerDeps } from "./viewer";

const { congresses, congressPackages, congressTicketOrders } = schema;

export interface CheckoutReturnState {
  /** the package's name or the event's title */
  name: string;
  /** the payment notification arrived: the visitor has a paid order for it */
  paid: boolean;
}

/**
 * What the return from the checkout (`/?custom=pid-..|cat-..`) stands for, for the visitor asking: the
 * product and whether their order is paid yet (the payment notification may come after the visitor). A
 * product that does not exist, or an event that sells no such ticket, is not found: nothing was bought.
 */
export async function checkoutReturnState(
  ctx: ViewerDeps,
  { userId, category, id }: { userId: number; category: CheckoutCategory; id: number },
): Promise<CheckoutReturnState> {
  const viewer = await loadViewer(ctx, userId);
  const notFound = new AppError("NOT_FOUND", `${category} ${id}`, MSG.productNotFound, MSG.defaultErrorTitle);
  if (category === "pac") {
    const [pkg] = await ctx.db
      .select({ id: congressPackages.id, name: congressPackages.name })
      .from(congressPackages)
      .where(eq(congressPackages.id, id));
    if (!pkg) {
      throw notFound;
    }
    return { name: pkg.name, paid: (await paidPackageIds(ctx.db, viewer.id, [pkg.id])).size > 0 };
  }
  const [congress] = await ctx.db.select().from(congresses).where(eq(congresses.id, id));
  const checkoutId = category === "tic" ? congress?.digistoreIdTicket : congress?.digistoreIdTicketAndPackage;
  if (!congress || !checkoutId || checkoutId <= 0) {
    throw notFound;
  }
  if (!congress.visible && !viewer.isStaff) {
    // a hidden event is known only to those who ordered it
    const [order] = await ctx.db
      .select({ id: congressTicketOrders.id })
      .from(congressTicketOrders)
      .where(and(eq(congressTicketOrders.userId, viewer.id), eq(congressTicketOrders.congressId, id)))
      .limit(1);
    if (!order) {
      throw notFound;
    }
  }
  return { name: congress.title, paid: await hasPaidTicket(ctx.db, viewer.id, congress.id) };
}
