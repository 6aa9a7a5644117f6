import { type Db, type DbOrTx, schema } from "@app/db";
import {
  alreadyPaidText,
  END_REASON_LABELS,
  type EndReason,
  FAKE_ORDER_NUMBER,
  ORDER_STATUS_LABELS,
  type OrderStatus,
  type PaidOrder,
  type ZOrderListInput,
} from "@app/shared";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { containsPattern } from "../../lib/like";
import { adminPage } from "../../lib/paging";
import { adminActor, recordAudit } from "../admin/audit";
import type { ServiceDeps } from "../deps";
import { applyOrder, findProduct, queueOrderMail } from "./grant";

const { congressPackageOrders, congressTicketOrders, congressPackages, congresses, users } = schema;

const label = (status: string) => ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
const endReasonLabel = (reason: string | null) =>
  reason === null ? null : (END_REASON_LABELS[reason as EndReason] ?? reason);

export interface PackageOrderRow {
  id: number;
  userEmail: string;
  congressPackage: { id: number; name: string; externalId: number };
  externalId: string;
  status: string;
  statusLabel: string;
  /** why a canceled order ended (refund, chargeback, denial), null otherwise */
  endReason: string | null;
  endReasonLabel: string | null;
  createdAt: Date;
}

export interface TicketOrderRow {
  id: number;
  userEmail: string;
  congress: { id: number; title: string; digistoreIdTicket: number; digistoreIdTicketAndPackage: number };
  externalId: string;
  status: string;
  statusLabel: string;
  /** why a canceled order ended (refund, chargeback, denial), null otherwise */
  endReason: string | null;
  endReasonLabel: string | null;
  createdAt: Date;
}

export type OrderTableSchema = typeof congressPackageOrders | typeof congressTicketOrders;

/** The order tables' search (buyer's e-mail contains, or the whole order number, any case); the exports use it too. */
export function orderSearch(table: OrderTableSchema, search: string): SQL | undefined {
  const needle = search.toLowerCase();
  return needle
    ? sql`${table.id} IN (
        SELECT o.id FROM ${table} o JOIN ${users} u ON u.id = o.user_id
          WHERE lower(u.email) LIKE ${containsPattern(needle)}
        UNION
        SELECT o.id FROM ${table} o WHERE lower(o.external_id) = ${needle}
      )`
    : undefined;
}

/**
 * One page of an order table, newest first, and the number of matches: the page's ids are searched, then
 * `rowsOf` reads their rows. The search runs as a union of two index-backed lookups (trigram index on the
 * e-mail, b-tree on the lower-cased order number) so it stays fast with hundreds of thousands of orders.
 */
async function orderPage<Row>(
  db: Db,
  table: OrderTableSchema,
  input: z.output<typeof ZOrderListInput>,
  rowsOf: (db: Db, ids: number[]) => Promise<Row[]>,
) {
  const where = orderSearch(table, input.search);
  const ids = db
    .select({ id: table.id })
    .from(table)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id));
  const page = await adminPage(db, { table, where, page: input.page }, ids.$dynamic());
  return {
    ...page,
    items: await rowsOf(
      db,
      page.items.map((r) => r.id),
    ),
  };
}

const byIdOrder = <T extends { id: number }>(rows: T[], ids: number[]) =>
  ids.flatMap((id) => rows.filter((r) => r.id === id));

/** The package orders with these ids, in the order given. */
async function packageOrderRows(db: Db, ids: number[]): Promise<PackageOrderRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select({ order: congressPackageOrders, email: users.email, pkg: congressPackages })
    .from(congressPackageOrders)
    .innerJoin(users, eq(users.id, congressPackageOrders.userId))
    .innerJoin(congressPackages, eq(congressPackages.id, congressPackageOrders.congressPackageId))
    .where(inArray(congressPackageOrders.id, ids));
  const mapped = rows.map(({ order, email, pkg }) => ({
    id: order.id,
    userEmail: email,
    congressPackage: { id: pkg.id, name: pkg.name, externalId: pkg.externalId },
    externalId: order.externalId,
    status: order.status,
    statusLabel: label(order.status),
    endReason: order.endReason,
    endReasonLabel: endReasonLabel(order.endReason),
    createdAt: order.createdAt,
  }));
  return byIdOrder(mapped, ids);
}

/** The ticket orders with these ids, in the order given. */
async function ticketOrderRows(db: Db, ids: number[]): Promise<TicketOrderRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select({ order: congressTicketOrders, email: users.email, congress: congresses })
    .from(congressTicketOrders)
    .innerJoin(users, eq(users.id, congressTicketOrders.userId))
    .innerJoin(congresses, eq(congresses.id, congressTicketOrders.congressId))
    .where(inArray(congressTicketOrders.id, ids));
  const mapped = rows.map(({ order, email, congress }) => ({
    id: order.id,
    userEmail: email,
    congress: {
      id: congress.id,
      title: congress.title,
      digistoreIdTicket: congress.digistoreIdTicket,
      digistoreIdTicketAndPackage: congress.digistoreIdTicketAndPackage,
    },
    externalId: order.externalId,
    status: order.status,
    statusLabel: label(order.status),
    endReason: order.endReason,
    endReasonLabel: endReasonLabel(order.endReason),
    createdAt: order.createdAt,
  }));
  return byIdOrder(mapped, ids);
}

/** One page of the package orders table, newest first. */
export function listPackageOrders(db: Db, input: z.output<typeof ZOrderListInput>) {
  return orderPage(db, congressPackageOrders, input, packageOrderRows);
}

/** One page of the ticket orders table, newest first. */
export function listTicketOrders(db: Db, input: z.output<typeof ZOrderListInput>) {
  return orderPage(db, congressTicketOrders, input, ticketOrderRows);
}

/** Where an order of each category an admin makes is kept, and which column names its product. */
const ADMIN_ORDER_TABLES = {
  pac: { table: congressPackageOrders, product: congressPackageOrders.congressPackageId },
  tic: { table: congressTicketOrders, product: congressTicketOrders.congressId },
} as const;

/** The paid orders these users already have of this package (`pac`) or this event's ticket (`tic`). */
export async function paidOrdersOf(
  db: DbOrTx,
  input: { category: "pac" | "tic"; productId: number; userIds: number[] },
): Promise<PaidOrder[]> {
  if (input.userIds.length === 0) {
    return [];
  }
  const { table, product } = ADMIN_ORDER_TABLES[input.category];
  return db
    .select({
      userId: table.userId,
      email: users.email,
      orderNumber: table.externalId,
      createdAt: table.createdAt,
    })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(and(eq(product, input.productId), inArray(table.userId, input.userIds), eq(table.status, "paid")))
    .orderBy(asc(users.email), asc(table.createdAt));
}

type AdminCtx = Pick<ServiceDeps, "db" | "env" | "mail">;
/** the acting admin and the chosen users */
type AdminOrdersInput = { actorId: number; userIds: number[] };

/**
 * Orders created by an admin for chosen users: one FAKE-ORDER per user, paid, with the same access as a
 * bought one, and a mail to each user. All in one transaction: a missing user or product creates nothing.
 */
async function createAdminOrders(
  ctx: AdminCtx,
  { actorId, userIds }: AdminOrdersInput,
  category: "pac" | "tic",
  productId: number,
): Promise<number[]> {
  const { createdIds, mailIds } = await ctx.db.transaction(async (tx) => {
    const product = await findProduct(tx, category, productId);
    if (!product) {
      throw new AppError(
        "NOT_FOUND",
        `${category} ${productId}`,
        category === "pac"
          ? "Das Kongresspaket wurde nicht gefunden."
          : "Die Veranstaltung wurde nicht gefunden.",
      );
    }
    const found = await tx.select({ id: users.id }).from(users).where(inArray(users.id, userIds));
    if (found.length !== userIds.length) {
      throw new AppError(
        "BAD_REQUEST",
        "unknown user ids",
        "Mindestens eine der gewählten Personen existiert nicht mehr.",
      );
    }
    // a person who already has it paid would get a second order and mail for the same access
    const paid = await paidOrdersOf(tx, { category, productId, userIds });
    if (paid.length > 0) {
      throw new AppError("CONFLICT", `${category} ${productId} already paid`, alreadyPaidText(paid));
    }
    const createdIds: number[] = [];
    const mailIds: Array<number | null> = [];
    for (const userId of userIds) {
      const target = { category, userId, productId, orderNumber: FAKE_ORDER_NUMBER };
      const { orderId } = await applyOrder(tx, target, "paid");
      createdIds.push(orderId);
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: "order.create",
        entity: "order",
        entityId: `${category === "pac" ? "package" : "ticket"}:${orderId}`,
        changes: { category, productId, userId, orderNumber: FAKE_ORDER_NUMBER, status: "paid" },
      });
      mailIds.push(
        await queueOrderMail(
          tx,
          ctx.env.APP_URL,
          target,
          product,
          `admin-order:${category}:${orderId}`,
          "admin",
        ),
      );
    }
    return { createdIds, mailIds };
  });
  await ctx.mail.dispatch(mailIds);
  return createdIds;
}

export async function createPackageOrders(ctx: AdminCtx, input: AdminOrdersInput & { packageId: number }) {
  return packageOrderRows(ctx.db, await createAdminOrders(ctx, input, "pac", input.packageId));
}

export async function createTicketOrders(ctx: AdminCtx, input: AdminOrdersInput & { congressId: number }) {
  return ticketOrderRows(ctx.db, await createAdminOrders(ctx, input, "tic", input.congressId));
}
