import { type Db, type DbOrTx, schema } from "@app/db";
import type { MailName } from "@app/mail";
import {
  type CheckoutCategory,
  END_REASON_LABELS,
  type EndReason,
  ORDER_STATUS_LABELS,
  type OrderKind,
  type OrderStatus,
} from "@app/shared";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";

const { congressPackageOrders, congressTicketOrders, congressPackages, congresses, participations, users } =
  schema;

/**
 * Package and ticket orders: the one place that knows how they differ (ADR 0097). Every layer
 * (grant, admin tables, procedures, REST paths, exports, checkout) takes a descriptor of `ORDER_KINDS`
 * (or the checkout category's, `CATEGORY_ORDERS`) instead of asking which kind it has.
 */

export type OrderTableSchema = typeof congressPackageOrders | typeof congressTicketOrders;

export interface OrderValues {
  userId: number;
  productId: number;
  orderNumber: string;
  status: OrderStatus;
  /** why a canceled order ended; null for paid ones */
  endReason: EndReason | null;
}

export interface OrderChange {
  orderId: number;
  /** the order became paid with this change */
  newlyPaid: boolean;
}

/** A row of an admin order table and of the REST order lists, as spec section 3 names it. */
interface OrderRowBase {
  id: number;
  userEmail: string;
  externalId: string;
  status: string;
  statusLabel: string;
  /** why a canceled order ended (refund, chargeback, denial), null otherwise */
  endReason: string | null;
  endReasonLabel: string | null;
  createdAt: Date;
}
export interface PackageOrderRow extends OrderRowBase {
  congressPackage: { id: number; name: string; externalId: number };
}
export interface TicketOrderRow extends OrderRowBase {
  congress: { id: number; title: string; digistoreIdTicket: number; digistoreIdTicketAndPackage: number };
}

export interface OrderKindDescriptor<Row extends OrderRowBase> {
  kind: OrderKind;
  /** where the orders are kept, and the column naming the product: the package, or the ticket's event */
  table: OrderTableSchema;
  productColumn: typeof congressPackageOrders.congressPackageId | typeof congressTicketOrders.congressId;
  insert(tx: DbOrTx, values: OrderValues): Promise<number>;
  /**
   * Writes an order's status (`write`) with what it grants beside itself, or takes it back: a ticket
   * grants the participation, a package nothing more.
   */
  settle(tx: DbOrTx, values: OrderValues, write: () => Promise<OrderChange>): Promise<OrderChange>;
  /** the rows of these ids in the given order, as the admin table and the REST paths answer them */
  rows(db: Db, ids: number[]): Promise<Row[]>;
  /** the checkout category an admin's order of this kind counts as (its mail, the audit) */
  adminCategory: "pac" | "tic";
  /** the admin's order names a product that does not exist */
  productNotFound: string;
  /** the spec's REST path (below /api) and the form field of an admin's order */
  rest: { path: string; formField: string };
  /** the export file: sheet and file name, the product's column (packages only) and the event's title */
  export: {
    sheetName: string;
    fileSlug: string;
    productHeader: string | null;
    product: SQL<string | null>;
    congressTitle: SQL<string>;
  };
}

const statusLabel = (status: string) => ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
const endReasonLabel = (reason: string | null) =>
  reason === null ? null : (END_REASON_LABELS[reason as EndReason] ?? reason);

/** What every order row shows beside its product. */
const rowBase = (
  order: Pick<
    typeof congressPackageOrders.$inferSelect,
    "id" | "externalId" | "status" | "endReason" | "createdAt"
  >,
  email: string,
): OrderRowBase => ({
  id: order.id,
  userEmail: email,
  externalId: order.externalId,
  status: order.status,
  statusLabel: statusLabel(order.status),
  endReason: order.endReason,
  endReasonLabel: endReasonLabel(order.endReason),
  createdAt: order.createdAt,
});

const byIdOrder = <T extends { id: number }>(rows: T[], ids: number[]) =>
  ids.flatMap((id) => rows.filter((r) => r.id === id));

/**
 * The spec's row: the product's field sits between the e-mail and the order number (answers stay byte
 * for byte as before the kinds were one).
 */
function withProduct<P extends object>(base: OrderRowBase, product: P) {
  const { id, userEmail, ...rest } = base;
  return { id, userEmail, ...product, ...rest };
}

const packageKind: OrderKindDescriptor<PackageOrderRow> = {
  kind: "package",
  table: congressPackageOrders,
  productColumn: congressPackageOrders.congressPackageId,
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
  settle: (_tx, _values, write) => write(),
  rows: async (db, ids) => {
    if (ids.length === 0) {
      return [];
    }
    const rows = await db
      .select({ order: congressPackageOrders, email: users.email, pkg: congressPackages })
      .from(congressPackageOrders)
      .innerJoin(users, eq(users.id, congressPackageOrders.userId))
      .innerJoin(congressPackages, eq(congressPackages.id, congressPackageOrders.congressPackageId))
      .where(inArray(congressPackageOrders.id, ids));
    const mapped = rows.map(({ order, email, pkg }) =>
      withProduct(rowBase(order, email), {
        congressPackage: { id: pkg.id, name: pkg.name, externalId: pkg.externalId },
      }),
    );
    return byIdOrder(mapped, ids);
  },
  adminCategory: "pac",
  productNotFound: "Das Kongresspaket wurde nicht gefunden.",
  rest: { path: "/congress-package-order", formField: "congressPackageOrderData" },
  export: {
    sheetName: "Paketbestellungen",
    fileSlug: "paketbestellungen",
    productHeader: "Kongresspaket",
    product: sql<
      string | null
    >`(SELECT k.name FROM ${congressPackages} k WHERE k.id = ${congressPackageOrders.congressPackageId})`,
    congressTitle: sql<string>`(SELECT c.title FROM ${congressPackages} k JOIN ${congresses} c ON c.id = k.congress_id WHERE k.id = ${congressPackageOrders.congressPackageId})`,
  },
};

const ticketKind: OrderKindDescriptor<TicketOrderRow> = {
  kind: "ticket",
  table: congressTicketOrders,
  productColumn: congressTicketOrders.congressId,
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
  settle: async (tx, values, write) => {
    // two orders of one buyer for one event (each locked on its own order number) must not decide the
    // participation at once: one could remove it while the other's payment is not yet visible
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`participation:${values.userId}:${values.productId}`}))`,
    );
    const change = await write();
    if (values.status === "paid") {
      await tx
        .insert(participations)
        .values({ userId: values.userId, congressId: values.productId })
        .onConflictDoNothing();
    } else if (!(await hasPaid(tx, "ticket", values.userId, values.productId))) {
      // another paid ticket order of the same user still covers the event: the participation stays
      await tx
        .delete(participations)
        .where(
          and(eq(participations.userId, values.userId), eq(participations.congressId, values.productId)),
        );
    }
    return change;
  },
  rows: async (db, ids) => {
    if (ids.length === 0) {
      return [];
    }
    const rows = await db
      .select({ order: congressTicketOrders, email: users.email, congress: congresses })
      .from(congressTicketOrders)
      .innerJoin(users, eq(users.id, congressTicketOrders.userId))
      .innerJoin(congresses, eq(congresses.id, congressTicketOrders.congressId))
      .where(inArray(congressTicketOrders.id, ids));
    const mapped = rows.map(({ order, email, congress }) =>
      withProduct(rowBase(order, email), {
        congress: {
          id: congress.id,
          title: congress.title,
          digistoreIdTicket: congress.digistoreIdTicket,
          digistoreIdTicketAndPackage: congress.digistoreIdTicketAndPackage,
        },
      }),
    );
    return byIdOrder(mapped, ids);
  },
  adminCategory: "tic",
  productNotFound: "Die Veranstaltung wurde nicht gefunden.",
  rest: { path: "/congress-ticket-order", formField: "congressTicketOrderData" },
  export: {
    sheetName: "Ticketbestellungen",
    fileSlug: "ticketbestellungen",
    productHeader: null,
    product: sql<string | null>`NULL::text`,
    congressTitle: sql<string>`(SELECT c.title FROM ${congresses} c WHERE c.id = ${congressTicketOrders.congressId})`,
  },
};

export const ORDER_KINDS = { package: packageKind, ticket: ticketKind } as const;
export type OrderRowOf<K extends OrderKind> = K extends "package" ? PackageOrderRow : TicketOrderRow;

/**
 * The ids among `productIds` the user has a paid order of this kind for (spec: bought means paid); with
 * `orderNumbers`, only orders of those numbers count (one purchase's, as the checkout return asks).
 */
export async function paidProductIds(
  db: DbOrTx,
  kind: OrderKind,
  userId: number,
  productIds: number[],
  { orderNumbers }: { orderNumbers?: string[] } = {},
): Promise<Set<number>> {
  if (productIds.length === 0 || orderNumbers?.length === 0) {
    return new Set();
  }
  const { table, productColumn } = ORDER_KINDS[kind];
  const rows = await db
    .selectDistinct({ id: productColumn })
    .from(table)
    .where(
      and(
        eq(table.userId, userId),
        inArray(productColumn, productIds),
        eq(table.status, "paid"),
        orderNumbers ? inArray(table.externalId, orderNumbers) : undefined,
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** Whether the user has a paid order of this kind for the product (a package, or an event's ticket). */
export async function hasPaid(
  db: DbOrTx,
  kind: OrderKind,
  userId: number,
  productId: number,
): Promise<boolean> {
  return (await paidProductIds(db, kind, userId, [productId])).has(productId);
}

/** The order of a kind with this order number and product (the checkout's orders are found so). */
export async function findOrder(db: DbOrTx, kind: OrderKind, orderNumber: string, productId: number) {
  const { table, productColumn } = ORDER_KINDS[kind];
  const [row] = await db
    .select({ id: table.id, userId: table.userId, status: table.status })
    .from(table)
    .where(and(eq(table.externalId, orderNumber), eq(productColumn, productId)));
  return row;
}

type CongressRow = typeof congresses.$inferSelect;

/**
 * The checkout's categories (spec section 7: pac, tic, ticpac): the order kind each one buys, whether it
 * also grants every package of the event (ticpac), the congress field holding its checkout product id
 * (tickets), its mail and how the mail names it.
 */
export const CATEGORY_ORDERS: Record<
  CheckoutCategory,
  {
    kind: OrderKind;
    withEventPackages: boolean;
    congressCheckoutId: (congress: CongressRow) => number;
    mail: MailName;
    productKind: string;
  }
> = {
  pac: {
    kind: "package",
    withEventPackages: false,
    // a package is sold under its own checkout id (`externalId`), never under one of its event's
    congressCheckoutId: () => 0,
    mail: "order-package",
    productKind: "Kongresspaket",
  },
  tic: {
    kind: "ticket",
    withEventPackages: false,
    congressCheckoutId: (congress) => congress.digistoreIdTicket,
    mail: "order-ticket",
    productKind: "Ticket",
  },
  ticpac: {
    kind: "ticket",
    withEventPackages: true,
    congressCheckoutId: (congress) => congress.digistoreIdTicketAndPackage,
    mail: "order-ticket-package",
    productKind: "Ticket und Kongresspaket",
  },
};
