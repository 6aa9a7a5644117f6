import { z } from "zod";
import "./zod-locale";
import { formatGermanDate } from "./dates";
import { zChoice, zForm, zSearch } from "./field-text";
import { zRef } from "./ids";
import { zPage } from "./paging";

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
/** The paid orders the chosen people already have of a package (`pac`) or an event's ticket (`tic`). */
export const ZPaidOrdersInput = zForm({
  category: zChoice(["pac", "tic"], MSG_ORDERS.productRequired),
  productId: zRef(MSG_ORDERS.productRequired),
  users: z
    .array(zRef(MSG_ORDERS.userInvalid), { error: MSG_ORDERS.usersRequired })
    .max(500, MSG_ORDERS.tooManyUsers),
});
export type TAdminPackageOrderInput = z.input<typeof ZAdminPackageOrderInput>;
export type TAdminTicketOrderInput = z.input<typeof ZAdminTicketOrderInput>;

/**
 * One page of an admin order table: `search` matches the buyer's e-mail (contains, any case) or the order
 * number (exact, any case).
 */
export const ZOrderListInput = zForm({
  search: zSearch(254),
  page: zPage(1_000_000),
});
export type TOrderListInput = z.input<typeof ZOrderListInput>;
