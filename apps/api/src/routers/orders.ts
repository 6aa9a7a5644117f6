import {
  ZAdminPackageOrderInput,
  ZAdminTicketOrderInput,
  ZOrderListInput,
  ZPaidOrdersInput,
} from "@app/shared";
import {
  createPackageOrders,
  createTicketOrders,
  listPackageOrders,
  listTicketOrders,
  paidOrdersOf,
} from "../services/commerce/admin-orders";
import { adminProcedure, router } from "../trpc/init";

export const ordersRouter = router({
  listPackageOrders: adminProcedure
    .input(ZOrderListInput)
    .query(({ ctx, input }) => listPackageOrders(ctx.db, input)),
  listTicketOrders: adminProcedure
    .input(ZOrderListInput)
    .query(({ ctx, input }) => listTicketOrders(ctx.db, input)),
  /** the order form's warning: who of the chosen people already has the chosen product paid */
  listPaidOrders: adminProcedure
    .input(ZPaidOrdersInput)
    .query(({ ctx, input }) =>
      paidOrdersOf(ctx.db, { category: input.category, productId: input.productId, userIds: input.users }),
    ),
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
