import { schema } from "@app/db";
import { type CheckoutCategory, type OrderKind, REFUSALS } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { refuse } from "../../lib/app-error";
import { CATEGORY_ORDERS, hasPaid } from "../commerce/order-kinds";
import { loadViewer, type Viewer, type ViewerDeps } from "./viewer";

const { congresses, congressPackages, congressTicketOrders } = schema;

export interface CheckoutReturnState {
  /** the package's name or the event's title */
  name: string;
  /** the payment notification arrived: the visitor has a paid order for it */
  paid: boolean;
}

type ReturnState = (
  ctx: ViewerDeps,
  viewer: Viewer,
  category: CheckoutCategory,
  id: number,
) => Promise<CheckoutReturnState | null>;

/** Each kind's product and whether the visitor's order of it is paid; null: not found. */
const RETURN_STATE: Record<OrderKind, ReturnState> = {
  package: async (ctx, viewer, _category, id) => {
    const [pkg] = await ctx.db
      .select({ id: congressPackages.id, name: congressPackages.name })
      .from(congressPackages)
      .where(eq(congressPackages.id, id));
    return pkg ? { name: pkg.name, paid: await hasPaid(ctx.db, "package", viewer.id, pkg.id) } : null;
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
    return { name: congress.title, paid: await hasPaid(ctx.db, "ticket", viewer.id, congress.id) };
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
 * product and whether their order is paid yet (the payment notification may come after the visitor). A
 * product that does not exist, or an event that sells no such ticket, is not found: nothing was bought.
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
  return state;
}
