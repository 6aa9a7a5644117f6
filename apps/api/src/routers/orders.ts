import { ZAdminPackageOrderInput, ZAdminTicketOrderInput, ZOrderListInput } from "@app/shared";
import {
  createPackageOrders,
  createTicketOrders,
  listPackageOrders,
  listTicketOrders,
} from "../services/commerce/admin-orders";
import { adminProcedure, router } from "../trpc/init";

export const ordersRouter = router({
  listPackageOrders: adminProcedure
    .input(ZOrderListInput)
    .query(({ ctx, input }) => listPackageOrders(ctx.db, input)),
  listTicketOrders: adminProcedure
    .input(ZOrderListInput)
    .query(({ ctx, input }) => listTicketOrders(ctx.db, input)),
  createPackageOrders: adminProcedure.input(ZAdminPackageOrderInput).mutation(({ ctx, input }) =>
    createPackageOrders(ctx, {
      actorId: ctx.user.id,
      userIds: input.users,
      packageId: input.congressPackage,
    }),
  ),
  createTicketOrders: adminProcedure
    .input(ZAdminTicketOrderInput)
    .mutation(({ ctx, input }) =>
      createTicketOrders(ctx, { actorId: ctx.user.id, userIds: input.users, congressId: input.congress }),
    ),
});
