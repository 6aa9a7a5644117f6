import { ZAdminPackageOrderInput, ZAdminTicketOrderInput } from "@app/shared";
import {
  createPackageOrders,
  createTicketOrders,
  listPackageOrders,
  listTicketOrders,
} from "../services/commerce/admin-orders";
import { adminProcedure, router } from "../trpc/init";

export const ordersRouter = router({
  packageOrders: adminProcedure.query(({ ctx }) => listPackageOrders(ctx.db)),
  ticketOrders: adminProcedure.query(({ ctx }) => listTicketOrders(ctx.db)),
  createPackageOrders: adminProcedure
    .input(ZAdminPackageOrderInput)
    .mutation(({ ctx, input }) => createPackageOrders(ctx, input.users, input.congressPackage)),
  createTicketOrders: adminProcedure
    .input(ZAdminTicketOrderInput)
    .mutation(({ ctx, input }) => createTicketOrders(ctx, input.users, input.congress)),
});
