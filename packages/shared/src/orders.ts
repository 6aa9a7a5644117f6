import { z } from "zod";
import "./zod-locale";
import { ZRef } from "./ids";

const userList = z
  .array(ZRef)
  .min(1, "Bitte wählen Sie mindestens eine Person aus.")
  .max(500)
  .transform((ids) => [...new Set(ids)]);

/** Admin input of `POST /api/congress-package-order/` (field congressPackageOrderData). */
export const ZAdminPackageOrderInput = z.object({
  users: userList,
  congressPackage: ZRef,
});

/** Admin input of `POST /api/congress-ticket-order/` (field congressTicketOrderData). */
export const ZAdminTicketOrderInput = z.object({
  users: userList,
  congress: ZRef,
});
export type TAdminPackageOrderInput = z.input<typeof ZAdminPackageOrderInput>;
export type TAdminTicketOrderInput = z.input<typeof ZAdminTicketOrderInput>;

/**
 * One page of an admin order table: `search` matches the buyer's e-mail (contains, any case) or the order
 * number (exact, any case).
 */
export const ZOrderListInput = z.object({
  search: z.string().trim().max(254).default(""),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type TOrderListInput = z.input<typeof ZOrderListInput>;
