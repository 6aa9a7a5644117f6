import type { TAdminPackageOrderInput, TAdminTicketOrderInput } from "@app/shared";
import { z } from "zod";
import type { RestRoute } from "./adapter";
import { jsonField, readForm } from "./form";

const envelope = z.object({}).loose();

/** The order paths of spec section 7 (admin only; the procedures check the role). */
export const orderRestRoutes: RestRoute[] = [
  { method: "GET", url: "/congress-package-order", handler: (caller) => caller.orders.packageOrders() },
  {
    method: "POST",
    url: "/congress-package-order",
    status: 201,
    handler: async (caller, req) => {
      const data = jsonField(await readForm(req), "congressPackageOrderData", envelope);
      return caller.orders.createPackageOrders(data as TAdminPackageOrderInput);
    },
  },
  { method: "GET", url: "/congress-ticket-order", handler: (caller) => caller.orders.ticketOrders() },
  {
    method: "POST",
    url: "/congress-ticket-order",
    status: 201,
    handler: async (caller, req) => {
      const data = jsonField(await readForm(req), "congressTicketOrderData", envelope);
      return caller.orders.createTicketOrders(data as TAdminTicketOrderInput);
    },
  },
];
