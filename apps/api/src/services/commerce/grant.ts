import { type DbOrTx, schema } from "@app/db";
import {
  type CheckoutCategory,
  type EndReason,
  FAKE_ORDER_NUMBER,
  type OrderKind,
  type OrderStatus,
} from "@app/shared";
import { eq } from "drizzle-orm";
import { queueMail } from "../../mail-delivery/outbox";
import { appLink, userMailVariables } from "../auth/user-rows";
import { CATEGORY_ORDERS, findOrder, ORDER_KINDS, type OrderChange, type OrderValues } from "./order-kinds";

const { congressPackages, congresses, users } = schema;

export interface OrderTarget {
  category: CheckoutCategory;
  userId: number;
  /** our id: the package for pac, the congress for tic and ticpac */
  productId: number;
  /** the checkout provider's order number, or FAKE-ORDER */
  orderNumber: string;
}

/**
 * Sets the status of one order row of a kind, creating it when new, with what the kind grants beside it
 * (`settle`). Rows are found by order number and product; FAKE-ORDER rows (admin orders) are never
 * matched, each is a new row.
 */
async function setOrder(tx: DbOrTx, kind: OrderKind, values: OrderValues): Promise<OrderChange> {
  const descriptor = ORDER_KINDS[kind];
  return descriptor.settle(tx, values, async () => {
    const existing =
      values.orderNumber === FAKE_ORDER_NUMBER
        ? undefined
        : await findOrder(tx, kind, values.orderNumber, values.productId);
    if (!existing) {
      return { orderId: await descriptor.insert(tx, values), newlyPaid: values.status === "paid" };
    }
    if (existing.status !== values.status) {
      const { table } = descriptor;
      await tx
        .update(table)
        .set({ status: values.status, endReason: values.endReason })
        .where(eq(table.id, existing.id));
    }
    return { orderId: existing.id, newlyPaid: values.status === "paid" && existing.status !== "paid" };
  });
}

/**
 * Applies an order's status with everything it grants: pac = the package order; tic = the ticket order and
 * the participation; ticpac = the ticket order, package orders for every package of the event and the
 * participation. Withdrawing removes the access again.
 */
export async function applyOrder(
  tx: DbOrTx,
  target: OrderTarget,
  status: OrderStatus,
  endReason: EndReason | null = null,
): Promise<OrderChange> {
  const values = {
    userId: target.userId,
    productId: target.productId,
    orderNumber: target.orderNumber,
    status,
    endReason,
  };
  const { kind, withEventPackages } = CATEGORY_ORDERS[target.category];
  const change = await setOrder(tx, kind, values);
  if (withEventPackages) {
    const packages = await tx
      .select({ id: congressPackages.id })
      .from(congressPackages)
      .where(eq(congressPackages.congressId, target.productId));
    for (const pkg of packages) {
      await setOrder(tx, "package", { ...values, productId: pkg.id });
    }
  }
  return change;
}

/**
 * The account an order of the checkout belongs to (its first notification's), or undefined while no
 * notification created it: the ticket order for tic and ticpac, the package order for pac.
 */
export async function orderOwner(
  tx: DbOrTx,
  target: Omit<OrderTarget, "userId">,
): Promise<number | undefined> {
  const { kind } = CATEGORY_ORDERS[target.category];
  return (await findOrder(tx, kind, target.orderNumber, target.productId))?.userId;
}

export interface Product {
  congressId: number;
  name: string;
  /** the checkout product id the provider must report for it */
  checkoutId: number;
}

/** The congress a product belongs to, its display name and checkout id, or null when it does not exist. */
export async function findProduct(
  db: DbOrTx,
  category: CheckoutCategory,
  productId: number,
): Promise<Product | null> {
  return PRODUCT_OF_KIND[CATEGORY_ORDERS[category].kind](db, category, productId);
}

/** A product of each order kind: a package (its own checkout id) or an event (the category's checkout id). */
const PRODUCT_OF_KIND: Record<
  OrderKind,
  (db: DbOrTx, category: CheckoutCategory, productId: number) => Promise<Product | null>
> = {
  package: async (db, _category, productId) => {
    const [pkg] = await db
      .select({
        congressId: congressPackages.congressId,
        name: congressPackages.name,
        externalId: congressPackages.externalId,
      })
      .from(congressPackages)
      .where(eq(congressPackages.id, productId));
    return pkg ? { congressId: pkg.congressId, name: pkg.name, checkoutId: pkg.externalId } : null;
  },
  ticket: async (db, category, productId) => {
    const [congress] = await db.select().from(congresses).where(eq(congresses.id, productId));
    if (!congress) {
      return null;
    }
    const checkoutId = CATEGORY_ORDERS[category].congressCheckoutId(congress);
    return { congressId: congress.id, name: congress.title, checkoutId };
  },
};

/**
 * Queues the order confirmation (the event's own template overrides the general one). Orders bought at
 * the checkout get the mail of their category; orders an admin creates get "order-admin".
 */
export async function queueOrderMail(
  tx: DbOrTx,
  appUrl: string,
  target: OrderTarget,
  product: { congressId: number; name: string },
  idempotencyKey: string,
  by: "checkout" | "admin" = "checkout",
): Promise<number | null> {
  const [user] = await tx.select().from(users).where(eq(users.id, target.userId));
  if (!user) {
    return null;
  }
  return queueMail(tx, {
    templateName: by === "admin" ? "order-admin" : CATEGORY_ORDERS[target.category].mail,
    to: user.email,
    userId: user.id,
    congressId: product.congressId,
    idempotencyKey,
    variables: {
      ...userMailVariables(user),
      productName: product.name,
      productKind: CATEGORY_ORDERS[target.category].productKind,
      url: appLink(appUrl, ""),
    },
  });
}
