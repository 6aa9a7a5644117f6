import { type DbOrTx, schema } from "@app/db";
import type { MailName } from "@app/mail";
import { type CheckoutCategory, type EndReason, FAKE_ORDER_NUMBER, type OrderStatus } from "@app/shared";
import { and, eq, sql } from "drizzle-orm";
import { queueMail } from "../../mail-delivery/outbox";
import { appLink, userMailVariables } from "../auth/user-rows";

const { congressPackageOrders, congressTicketOrders, congressPackages, congresses, participations, users } =
  schema;

export interface OrderTarget {
  category: CheckoutCategory;
  userId: number;
  /** our id: the package for pac, the congress for tic and ticpac */
  productId: number;
  /** the checkout provider's order number, or FAKE-ORDER */
  orderNumber: string;
}

export const MAIL_FOR_CATEGORY: Record<CheckoutCategory, MailName> = {
  pac: "order-package",
  tic: "order-ticket",
  ticpac: "order-ticket-package",
};

const PRODUCT_KIND: Record<CheckoutCategory, string> = {
  pac: "Kongresspaket",
  tic: "Ticket",
  ticpac: "Ticket und Kongresspaket",
};

interface OrderChange {
  orderId: number;
  /** the order became paid with this change */
  newlyPaid: boolean;
}

type OrderValues = {
  userId: number;
  productId: number;
  orderNumber: string;
  status: OrderStatus;
  /** why a canceled order ended; null for paid ones */
  endReason: EndReason | null;
};

interface OrderRow {
  id: number;
  userId: number;
  status: string;
}

/** How to find, create and update the rows of one order table. */
interface OrderTable {
  find(tx: DbOrTx, orderNumber: string, productId: number): Promise<OrderRow | undefined>;
  insert(tx: DbOrTx, values: OrderValues): Promise<number>;
  update(tx: DbOrTx, id: number, values: OrderValues): Promise<void>;
}

const packageOrders: OrderTable = {
  find: async (tx, orderNumber, productId) =>
    (
      await tx
        .select({
          id: congressPackageOrders.id,
          userId: congressPackageOrders.userId,
          status: congressPackageOrders.status,
        })
        .from(congressPackageOrders)
        .where(
          and(
            eq(congressPackageOrders.externalId, orderNumber),
            eq(congressPackageOrders.congressPackageId, productId),
          ),
        )
    )[0],
  insert: async (tx, v) => {
    const [row] = await tx
      .insert(congressPackageOrders)
      .values({
        userId: v.userId,
        congressPackageId: v.productId,
        externalId: v.orderNumber,
        status: v.status,
        endReason: v.endReason,
      })
      .returning({ id: congressPackageOrders.id });
    return row?.id ?? 0;
  },
  update: async (tx, id, v) => {
    await tx
      .update(congressPackageOrders)
      .set({ status: v.status, endReason: v.endReason })
      .where(eq(congressPackageOrders.id, id));
  },
};

const ticketOrders: OrderTable = {
  find: async (tx, orderNumber, productId) =>
    (
      await tx
        .select({
          id: congressTicketOrders.id,
          userId: congressTicketOrders.userId,
          status: congressTicketOrders.status,
        })
        .from(congressTicketOrders)
        .where(
          and(
            eq(congressTicketOrders.externalId, orderNumber),
            eq(congressTicketOrders.congressId, productId),
          ),
        )
    )[0],
  insert: async (tx, v) => {
    const [row] = await tx
      .insert(congressTicketOrders)
      .values({
        userId: v.userId,
        congressId: v.productId,
        externalId: v.orderNumber,
        status: v.status,
        endReason: v.endReason,
      })
      .returning({ id: congressTicketOrders.id });
    return row?.id ?? 0;
  },
  update: async (tx, id, v) => {
    await tx
      .update(congressTicketOrders)
      .set({ status: v.status, endReason: v.endReason })
      .where(eq(congressTicketOrders.id, id));
  },
};

/**
 * Sets the status of one order row, creating it when new. Rows are found by order number and product;
 * FAKE-ORDER rows (admin orders) are never matched, each is a new row.
 */
async function setOrder(tx: DbOrTx, table: OrderTable, values: OrderValues): Promise<OrderChange> {
  const existing =
    values.orderNumber === FAKE_ORDER_NUMBER
      ? undefined
      : await table.find(tx, values.orderNumber, values.productId);
  if (!existing) {
    return { orderId: await table.insert(tx, values), newlyPaid: values.status === "paid" };
  }
  if (existing.status !== values.status) {
    await table.update(tx, existing.id, values);
  }
  return { orderId: existing.id, newlyPaid: values.status === "paid" && existing.status !== "paid" };
}

async function setTicketOrder(tx: DbOrTx, values: OrderValues): Promise<OrderChange> {
  // two orders of one buyer for one event (each locked on its own order number) must not decide the
  // participation at once: one could remove it while the other's payment is not yet visible
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`participation:${values.userId}:${values.productId}`}))`,
  );
  const change = await setOrder(tx, ticketOrders, values);
  if (values.status === "paid") {
    await tx
      .insert(participations)
      .values({ userId: values.userId, congressId: values.productId })
      .onConflictDoNothing();
  } else {
    await withdrawParticipation(tx, values.userId, values.productId);
  }
  return change;
}

/** Whether the user has a paid ticket order for the event (spec: bought means paid). */
export async function hasPaidTicket(db: DbOrTx, userId: number, congressId: number): Promise<boolean> {
  const [paid] = await db
    .select({ id: congressTicketOrders.id })
    .from(congressTicketOrders)
    .where(
      and(
        eq(congressTicketOrders.userId, userId),
        eq(congressTicketOrders.congressId, congressId),
        eq(congressTicketOrders.status, "paid"),
      ),
    )
    .limit(1);
  return paid !== undefined;
}

/** Removes the participation unless another paid ticket order of the same user still covers the event. */
async function withdrawParticipation(tx: DbOrTx, userId: number, congressId: number): Promise<void> {
  if (!(await hasPaidTicket(tx, userId, congressId))) {
    await tx
      .delete(participations)
      .where(and(eq(participations.userId, userId), eq(participations.congressId, congressId)));
  }
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
  if (target.category === "pac") {
    return setOrder(tx, packageOrders, values);
  }
  const change = await setTicketOrder(tx, values);
  if (target.category === "ticpac") {
    const packages = await tx
      .select({ id: congressPackages.id })
      .from(congressPackages)
      .where(eq(congressPackages.congressId, target.productId));
    for (const pkg of packages) {
      await setOrder(tx, packageOrders, { ...values, productId: pkg.id });
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
  const table = target.category === "pac" ? packageOrders : ticketOrders;
  return (await table.find(tx, target.orderNumber, target.productId))?.userId;
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
  if (category === "pac") {
    const [pkg] = await db
      .select({
        congressId: congressPackages.congressId,
        name: congressPackages.name,
        externalId: congressPackages.externalId,
      })
      .from(congressPackages)
      .where(eq(congressPackages.id, productId));
    return pkg ? { congressId: pkg.congressId, name: pkg.name, checkoutId: pkg.externalId } : null;
  }
  const [congress] = await db.select().from(congresses).where(eq(congresses.id, productId));
  if (!congress) {
    return null;
  }
  const checkoutId = category === "tic" ? congress.digistoreIdTicket : congress.digistoreIdTicketAndPackage;
  return { congressId: congress.id, name: congress.title, checkoutId };
}

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
    templateName: by === "admin" ? "order-admin" : MAIL_FOR_CATEGORY[target.category],
    to: user.email,
    userId: user.id,
    congressId: product.congressId,
    idempotencyKey,
    variables: {
      ...userMailVariables(user),
      productName: product.name,
      productKind: PRODUCT_KIND[target.category],
      url: appLink(appUrl, ""),
    },
  });
}
