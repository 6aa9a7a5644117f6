import type { TAdminPackageOrderInput, TAdminTicketOrderInput, TOrderListInput } from "@app/shared";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { RestRoute } from "./adapter";
import { adminForm } from "./admin";
import { jsonField } from "./form";

const envelope = z.object({}).loose();

/** `?search=…&page=…` of the order tables (validated by the procedure). */
const listQuery = (req: FastifyRequest): TOrderListInput => {
  const query = req.query as Record<string, string | undefined>;
  return { search: query.search, page: query.page as unknown as number };
};

/** The order paths of spec section 7 (admin only; the procedures check the role). */
export const orderRestRoutes: RestRoute[] = [
  {
    method: "GET",
    url: "/congress-package-order",
    handler: (caller, req) => caller.orders.packageOrders(listQuery(req)),
  },
  {
    method: "POST",
    url: "/congress-package-order",
    status: 201,
    handler: async (caller, req) => {
      const data = jsonField(await adminForm(caller, req), "congressPackageOrderData", envelope);
      return caller.orders.createPackageOrders(data as TAdminPackageOrderInput);
    },
  },
  {
    method: "GET",
    url: "/congress-ticket-order",
    handler: (caller, req) => caller.orders.ticketOrders(listQuery(req)),
  },
  {
    method: "POST",
    url: "/congress-ticket-order",
    status: 201,
    handler: async (caller, req) => {
      const data = jsonField(await adminForm(caller, req), "congressTicketOrderData", envelope);
      return caller.orders.createTicketOrders(data as TAdminTicketOrderInput);
    },
  },
];
