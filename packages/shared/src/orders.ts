import { z } from "zod";
import "./zod-locale";
import { zForm, zSearch } from "./field-text";
import { zRef } from "./ids";
import { zPage } from "./paging";

export const MSG_ORDERS = {
  usersRequired: "Bitte wählen Sie mindestens eine Person aus.",
  userInvalid: "Eine der gewählten Personen ist ungültig. Bitte wählen Sie sie erneut aus.",
  tooManyUsers: "Bitte wählen Sie höchstens 500 Personen auf einmal.",
  packageRequired: "Bitte wählen Sie ein Kongresspaket.",
  congressRequired: "Bitte wählen Sie eine Veranstaltung.",
} as const;

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
