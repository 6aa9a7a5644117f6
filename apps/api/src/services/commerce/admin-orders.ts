import { type Db, schema } from "@app/db";
import { FAKE_ORDER_NUMBER, ORDER_STATUS_LABELS, type OrderStatus } from "@app/shared";
import { desc, eq, inArray } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { Context } from "../../trpc/context";
import { applyOrder, findProduct, queueOrderMail } from "./grant";

const { congressPackageOrders, congressTicketOrders, congressPackages, congresses, users } = schema;

const label = (status: string) => ORDER_STATUS_LABELS[status as OrderStatus] ?? status;

export interface PackageOrderRow {
  id: number;
  userEmail: string;
  congressPackage: { id: number; name: string; externalId: number };
  externalId: string;
  status: string;
  statusLabel: string;
  createdAt: Date;
}

export interface TicketOrderRow {
  id: number;
  userEmail: string;
  congress: { id: number; title: string; digistoreIdTicket: number; digistoreIdTicketAndPackage: number };
  externalId: string;
  status: string;
  statusLabel: string;
  createdAt: Date;
}

/** All package orders, newest first. */
export async function listPackageOrders(db: Db, ids?: number[]): Promise<PackageOrderRow[]> {
  const rows = await db
    .select({ order: congressPackageOrders, email: users.email, pkg: congressPackages })
    .from(congressPackageOrders)
    .innerJoin(users, eq(users.id, congressPackageOrders.userId))
    .innerJoin(congressPackages, eq(congressPackages.id, congressPackageOrders.congressPackageId))
    .where(ids ? inArray(congressPackageOrders.id, ids) : undefined)
    .orderBy(desc(congressPackageOrders.createdAt), desc(congressPackageOrders.id));
  return rows.map(({ order, email, pkg }) => ({
    id: order.id,
    userEmail: email,
    congressPackage: { id: pkg.id, name: pkg.name, externalId: pkg.externalId },
    externalId: order.externalId,
    status: order.status,
    statusLabel: label(order.status),
    createdAt: order.createdAt,
  }));
}

/** All ticket orders, newest first. */
export async function listTicketOrders(db: Db, ids?: number[]): Promise<TicketOrderRow[]> {
  const rows = await db
    .select({ order: congressTicketOrders, email: users.email, congress: congresses })
    .from(congressTicketOrders)
    .innerJoin(users, eq(users.id, congressTicketOrders.userId))
    .innerJoin(congresses, eq(congresses.id, congressTicketOrders.congressId))
    .where(ids ? inArray(congressTicketOrders.id, ids) : undefined)
    .orderBy(desc(congressTicketOrders.createdAt), desc(congressTicketOrders.id));
  return rows.map(({ order, email, congress }) => ({
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
    createdAt: order.createdAt,
  }));
}

type AdminCtx = Pick<Context, "db" | "env" | "mail">;

/**
 * Orders created by an admin for chosen users: one FAKE-ORDER per user, paid, with the same access as a
 * bought one, and a mail to each user. All in one transaction: a missing user or product creates nothing.
 */
async function createAdminOrders(
  ctx: AdminCtx,
  category: "pac" | "tic",
  userIds: number[],
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
    const createdIds: number[] = [];
    const mailIds: Array<number | null> = [];
    for (const userId of userIds) {
      const target = { category, userId, productId, orderNumber: FAKE_ORDER_NUMBER };
      const { orderId } = await applyOrder(tx, target, "paid");
      createdIds.push(orderId);
      mailIds.push(
        await queueOrderMail(tx, ctx.env.APP_URL, target, product, `admin-order:${category}:${orderId}`),
      );
    }
    return { createdIds, mailIds };
  });
  await ctx.mail.dispatch(mailIds);
  return createdIds;
}

export async function createPackageOrders(ctx: AdminCtx, userIds: number[], packageId: number) {
  return listPackageOrders(ctx.db, await createAdminOrders(ctx, "pac", userIds, packageId));
}

export async function createTicketOrders(ctx: AdminCtx, userIds: number[], congressId: number) {
  return listTicketOrders(ctx.db, await createAdminOrders(ctx, "tic", userIds, congressId));
}
