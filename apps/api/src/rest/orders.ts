import { pageAsList, queryValue, type RestInput, type RestRequest, type RestRoute } from "./adapter";
import { adminForm } from "./admin";
import { jsonField } from "./form";

/** `?search=…&page=…` of the order tables (validated by the procedure). */
const listQuery = (req: RestRequest): RestInput["orders"]["listPackageOrders"] => ({
  search: queryValue(req, "search"),
  page: queryValue(req, "page"),
});

/** The order paths of spec section 7 (admin only; the procedures check the role). */
export const orderRestRoutes: RestRoute[] = [
  {
    method: "GET",
    url: "/congress-package-order",
    handler: async (caller, req, reply) =>
      pageAsList(reply, await caller.orders.listPackageOrders(listQuery(req))),
  },
  {
    method: "POST",
    url: "/congress-package-order",
    status: 201,
    handler: async (caller, req) => {
      return caller.orders.createPackageOrders(
        jsonField(await adminForm(caller, req), "congressPackageOrderData"),
      );
    },
  },
  {
    method: "GET",
    url: "/congress-ticket-order",
    handler: async (caller, req, reply) =>
      pageAsList(reply, await caller.orders.listTicketOrders(listQuery(req))),
  },
  {
    method: "POST",
    url: "/congress-ticket-order",
    status: 201,
    handler: async (caller, req) => {
      return caller.orders.createTicketOrders(
        jsonField(await adminForm(caller, req), "congressTicketOrderData"),
      );
    },
  },
];
