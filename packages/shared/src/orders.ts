import { z } from "zod";
import "./zod-locale";
import { SEARCH_MAX } from "./constants";
import { formatGermanDate } from "./dates";
import { MSG_FIELD, zChoice, zForm, zSearch } from "./field-text";
import { zRef } from "./ids";
import { zPage } from "./paging";

/**
 * The two kinds of order (spec section 3: congress package orders and congress ticket orders). What differs
 * between them lives in one descriptor (`ORDER_KINDS` in apps/api/src/services/commerce/order-kinds.ts);
 * every procedure on orders takes the kind as input.
 */
export const ORDER_KIND_NAMES = ["package", "ticket"] as const;
export type OrderKind = (typeof ORDER_KIND_NAMES)[number];

export const MSG_ORDERS = {
  usersRequired: "Bitte wählen Sie mindestens eine Person aus.",
  userInvalid: "Eine der gewählten Personen ist ungültig. Bitte wählen Sie sie erneut aus.",
  tooManyUsers: "Bitte wählen Sie höchstens 500 Personen auf einmal.",
  packageRequired: "Bitte wählen Sie ein Kongresspaket.",
  congressRequired: "Bitte wählen Sie eine Veranstaltung.",
  productRequired: "Bitte wählen Sie ein Kongresspaket oder eine Veranstaltung.",
} as const;

/** A paid order a person already has of the product an admin is about to order for them. */
export interface PaidOrder {
  userId: number;
  email: string;
  orderNumber: string;
  createdAt: Date;
}

/**
 * Why an admin's order is not made twice: "Für a@example.com (FAKE-ORDER vom 27.11.2026) gibt es bereits
 * eine bezahlte Bestellung …". The order form shows it as a warning as soon as the people and the product
 * are chosen; the server refuses with it.
 */
export function alreadyPaidText(orders: PaidOrder[]): string {
  const who = orders
    .map((o) => `${o.email} (${o.orderNumber} vom ${formatGermanDate(o.createdAt)})`)
    .join(", ");
  const one = new Set(orders.map((o) => o.userId)).size === 1;
  return `Für ${who} gibt es bereits eine bezahlte Bestellung dieses Produkts, die denselben Zugang gibt. Bitte entfernen Sie ${one ? "diese Person" : "diese Personen"} aus der Auswahl.`;
}

const userList = z
  .array(zRef(MSG_ORDERS.userInvalid), { error: MSG_ORDERS.usersRequired })
  .min(1, MSG_ORDERS.usersRequired)
  .max(500, MSG_ORDERS.tooManyUsers)
  .transform((ids) => [...new Set(ids)]);

/** Admin input of `POST /api/congress-package-order/` (field congressPackageOrderData). */
export const ZAdminPackageOrderInput = zForm({
  users: userList,
  congressPackage: zRef(MSG_ORDERS.packageRequired),
});

/** Admin input of `POST /api/congress-ticket-order/` (field congressTicketOrderData). */
export const ZAdminTicketOrderInput = zForm({
  users: userList,
  congress: zRef(MSG_ORDERS.congressRequired),
});

/**
 * An admin's orders of either kind: the kind and that kind's form of spec section 3, read as the chosen
 * people and the product's id (the refused field keeps its spec name, e.g. `congressPackage`).
 */
export const ZAdminOrderInput = z.discriminatedUnion(
  "kind",
  [
    ZAdminPackageOrderInput.extend({ kind: z.literal("package", { error: MSG_FIELD.choice }) }).transform(
      (input) => ({
        kind: input.kind,
        users: input.users,
        productId: input.congressPackage,
      }),
    ),
    ZAdminTicketOrderInput.extend({ kind: z.literal("ticket", { error: MSG_FIELD.choice }) }).transform(
      (input) => ({
        kind: input.kind,
        users: input.users,
        productId: input.congress,
      }),
    ),
  ],
  { error: MSG_FIELD.form },
);
export type TAdminOrderInput = z.input<typeof ZAdminOrderInput>;

const zOrderKind = zChoice(ORDER_KIND_NAMES, MSG_ORDERS.productRequired);

/** The paid orders the chosen people already have of a package or of an event's ticket. */
export const ZPaidOrdersInput = zForm({
  kind: zOrderKind,
  productId: zRef(MSG_ORDERS.productRequired),
  users: z
    .array(zRef(MSG_ORDERS.userInvalid), { error: MSG_ORDERS.usersRequired })
    .max(500, MSG_ORDERS.tooManyUsers),
});
export type TAdminPackageOrderInput = z.input<typeof ZAdminPackageOrderInput>;
export type TAdminTicketOrderInput = z.input<typeof ZAdminTicketOrderInput>;

/**
 * One page of an admin order table of a kind: `search` matches the buyer's e-mail (contains, any case) or the order
 * number (exact, any case).
 */
export const ZOrderListInput = zForm({
  kind: zOrderKind,
  search: zSearch(SEARCH_MAX.orders),
  page: zPage(1_000_000),
});
export type TOrderListInput = z.input<typeof ZOrderListInput>;
