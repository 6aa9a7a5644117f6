import { ORDER_KIND_NAMES } from "@app/shared";
import { ORDER_KINDS } from "../services/commerce/order-kinds";
import { pageAsList, queryValue, type RestInput, type RestRequest, type RestRoute } from "./adapter";
import { jsonField, readForm } from "./form";

/** `?search=…&page=…` of the order tables (validated by the procedure). */
const listQuery = (req: RestRequest) => ({
  search: queryValue(req, "search"),
  page: queryValue(req, "page"),
});

/** The order paths of spec section 7, two per kind (its path and form field from the kind's descriptor). */
export const orderRestRoutes: RestRoute[] = ORDER_KIND_NAMES.flatMap((kind): RestRoute[] => {
  const { path, formField } = ORDER_KINDS[kind].rest;
  return [
    {
      method: "GET",
      url: path,
      role: "admin",
      handler: async (caller, req, reply) =>
        pageAsList(reply, await caller.orders.list({ ...listQuery(req), kind })),
    },
    {
      method: "POST",
      url: path,
      role: "admin",
      status: 201,
      handler: async (caller, req) => {
        // the kind is the path's: a `kind` in the JSON is overridden
        const data = jsonField<object>(await readForm(req), formField);
        return caller.orders.create({ ...data, kind } as RestInput["orders"]["create"]);
      },
    },
  ];
});
