import { schema } from "@app/db";
import { type CheckoutCategory, type CheckoutUnlocked, type OrderKind, REFUSALS } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { refuse } from "../../lib/app-error";
import { CATEGORY_ORDERS, paidProductIds } from "../commerce/order-kinds";
import { purchaseOrderNumbers } from "../commerce/purchase-orders";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congresses, congressPackages, congressTicketOrders } = schema;

export interface CheckoutReturnState {
  /** the package's name or the event's title */
  name: string;
  /** the payment notification of this purchase arrived and unlocked something (see `unlocked`) */
  paid: boolean;
  /** what the paid orders of this purchase grant: the ticket (the sign-up), the packages by name */
  unlocked: CheckoutUnlocked;
  /** the event has a package (a package's own event always does): says why ticket and package unlocked none */
  eventHasPackage: boolean;
}

type ReturnState = (
  ctx: ViewerDeps,
  viewer: Viewer,
  category: CheckoutCategory,
  id: number,
) => Promise<Omit<CheckoutReturnState, "paid"> | null>;

/** The order numbers of this visitor's purchase of the category's product (its payment notifications'). */
const orderNumbersOf = (ctx: ViewerDeps, viewer: Viewer, category: CheckoutCategory, id: number) =>
  purchaseOrderNumbers(ctx.db, { digistoreHash: viewer.digistoreHash, category, productId: id });

/**
 * Each kind's product and what the paid orders of this purchase unlocked; null: not found. Only the orders
 * the purchase's own payment notifications made count: a ticket bought before, or an admin's order, is not
 * this purchase, and a package made after its payment was not part of it.
 */
const RETURN_STATE: Record<OrderKind, ReturnState> = {
  package: async (ctx, viewer, category, id) => {
    const [pkg] = await ctx.db
      .select({ id: congressPackages.id, name: congressPackages.name })
      .from(congressPackages)
      .where(eq(congressPackages.id, id));
    if (!pkg) {
      return null;
    }
    const orderNumbers = await orderNumbersOf(ctx, viewer, category, id);
    const paid = await paidProductIds(ctx.db, "package", viewer.id, [pkg.id], { orderNumbers });
    return {
      name: pkg.name,
      unlocked: { ticket: false, packages: paid.has(pkg.id) ? [pkg.name] : [] },
      eventHasPackage: true,
    };
  },
  ticket: async (ctx, viewer, category, id) => {
    const [congress] = await ctx.db.select().from(congresses).where(eq(congresses.id, id));
    if (!congress || CATEGORY_ORDERS[category].congressCheckoutId(congress) <= 0) {
      return null;
    }
    // a hidden event is known only to those who ordered it
    if (!congress.visible && !viewer.isStaff && !(await findTicketOrderOf(ctx, viewer.id, id))) {
      return null;
    }
    const orderNumbers = await orderNumbersOf(ctx, viewer, category, id);
    const ticket = await paidProductIds(ctx.db, "ticket", viewer.id, [congress.id], { orderNumbers });
    const packages = await ctx.db
      .select({ id: congressPackages.id, name: congressPackages.name })
      .from(congressPackages)
      .where(eq(congressPackages.congressId, congress.id))
      .orderBy(congressPackages.id);
    const paidPackages = CATEGORY_ORDERS[category].withEventPackages
      ? await paidProductIds(
          ctx.db,
          "package",
          viewer.id,
          packages.map((pkg) => pkg.id),
          { orderNumbers },
        )
      : new Set<number>();
    return {
      name: congress.title,
      unlocked: {
        ticket: ticket.has(congress.id),
        packages: packages.filter((pkg) => paidPackages.has(pkg.id)).map((pkg) => pkg.name),
      },
      eventHasPackage: packages.length > 0,
    };
  },
};

async function findTicketOrderOf(ctx: ViewerDeps, userId: number, congressId: number): Promise<boolean> {
  const [order] = await ctx.db
    .select({ id: congressTicketOrders.id })
    .from(congressTicketOrders)
    .where(and(eq(congressTicketOrders.userId, userId), eq(congressTicketOrders.congressId, congressId)))
    .limit(1);
  return order !== undefined;
}

/**
 * What the return from the checkout (`/?custom=pid-..|cat-..`) stands for, for the visitor asking: the
 * product and what the payment notification of this purchase unlocked (it may come after the visitor;
 * until then nothing). A product that does not exist, or an event that sells no such ticket, is not
 * found: nothing was bought.
 */
export async function checkoutReturnState(
  ctx: ViewerDeps,
  { userId, category, id }: { userId: number; category: CheckoutCategory; id: number },
): Promise<CheckoutReturnState> {
  const viewer = await loadViewer(ctx, userId);
  const state = await RETURN_STATE[CATEGORY_ORDERS[category].kind](ctx, viewer, category, id);
  if (!state) {
    throw refuse(REFUSALS.productNotFound, `${category} ${id}`);
  }
  const { ticket, packages } = state.unlocked;
  return { ...state, paid: ticket || packages.length > 0 };
}
