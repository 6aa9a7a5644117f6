import { ZAdminOrderInput, ZOrderListInput, ZPaidOrdersInput } from "@app/shared";
import { createAdminOrders, listOrders, paidOrdersOf } from "../services/commerce/admin-orders";
import { adminProcedure, router } from "../trpc/init";

/** The admin's package and ticket orders: each procedure takes the kind (`package` or `ticket`). */
export const ordersRouter = router({
  list: adminProcedure.input(ZOrderListInput).query(({ ctx, input }) => listOrders(ctx.db, input)),
  /** the order form's warning: who of the chosen people already has the chosen product paid */
  listPaidOrders: adminProcedure
    .input(ZPaidOrdersInput)
    .query(({ ctx, input }) =>
      paidOrdersOf(ctx.db, { kind: input.kind, productId: input.productId, userIds: input.users }),
    ),
  create: adminProcedure
    .input(ZAdminOrderInput)
    .mutation(({ ctx, input }) =>
      createAdminOrders(ctx, { ...input, actorId: ctx.user.id, userIds: input.users }),
    ),
});
