import { type Db, type DbOrTx, schema } from "@app/db";
import {
  alreadyPaidText,
  FAKE_ORDER_NUMBER,
  type OrderKind,
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
import { ORDER_KINDS, type OrderKindDescriptor, type OrderRowOf, type OrderTableSchema } from "./order-kinds";

const { users } = schema;

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

/** One page of the orders of a kind, newest first. */
export function listOrders<K extends OrderKind>(
  db: Db,
  input: z.output<typeof ZOrderListInput> & { kind: K },
) {
  const { table, rows } = ORDER_KINDS[input.kind] as OrderKindDescriptor<OrderRowOf<K>>;
  return orderPage(db, table, input, rows);
}

/** The paid orders these users already have of this package or this event's ticket. */
export async function paidOrdersOf(
  db: DbOrTx,
  input: { kind: OrderKind; productId: number; userIds: number[] },
): Promise<PaidOrder[]> {
  if (input.userIds.length === 0) {
    return [];
  }
  const { table, productColumn: product } = ORDER_KINDS[input.kind];
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
type AdminOrdersInput<K extends OrderKind> = {
  kind: K;
  actorId: number;
  userIds: number[];
  productId: number;
};

/**
 * Orders created by an admin for chosen users: one FAKE-ORDER per user, paid, with the same access as a
 * bought one, and a mail to each user. All in one transaction: a missing user or product creates nothing.
 */
export async function createAdminOrders<K extends OrderKind>(
  ctx: AdminCtx,
  { kind, actorId, userIds, productId }: AdminOrdersInput<K>,
): Promise<OrderRowOf<K>[]> {
  const descriptor = ORDER_KINDS[kind] as OrderKindDescriptor<OrderRowOf<K>>;
  const category = descriptor.adminCategory;
  const { createdIds, mailIds } = await ctx.db.transaction(async (tx) => {
    const product = await findProduct(tx, category, productId);
    if (!product) {
      throw new AppError("NOT_FOUND", `${category} ${productId}`, descriptor.productNotFound);
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
    const paid = await paidOrdersOf(tx, { kind, productId, userIds });
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
        entityId: `${kind}:${orderId}`,
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
  return descriptor.rows(ctx.db, createdIds);
}
