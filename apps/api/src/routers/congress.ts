import { CHECKOUT_CATEGORIES, ZGatedPathInput, ZGatedUnlockInput, ZId } from "@app/shared";
import { z } from "zod";
import { visitorCalendar } from "../services/calendar/congress-calendar";
import { checkoutUrl } from "../services/visitor/checkout";
import { checkoutReturnState } from "../services/visitor/checkout-return";
import { congressContent, getCongress, participationCounts } from "../services/visitor/congresses";
import { gatedStatus, resolveGatedPath, unlockGated } from "../services/visitor/gated";
import { keptOverview } from "../services/visitor/overview-cache";
import { getPackage, packagePage } from "../services/visitor/packages";
import { cancelParticipation, createParticipation } from "../services/visitor/participation";
import { videoPreview } from "../services/visitor/video-preview";
import { publicProcedure, router, userProcedure } from "../trpc/init";

export const congressRouter = router({
  getOverview: userProcedure.query(({ ctx }) => keptOverview(ctx, ctx.user.id)),
  get: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => getCongress(ctx, { ...input, userId: ctx.user.id })),
  getContent: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => congressContent(ctx, { ...input, userId: ctx.user.id })),
  /** how many take part in each of the events (the REST answers' `participationCount`) */
  countParticipations: userProcedure
    .input(z.object({ congressIds: z.array(ZId).max(100) }))
    .query(({ ctx, input }) =>
      participationCounts(ctx, {
        ...input,
        userId: ctx.user.id,
        admin: ctx.user.roles.includes("ROLE_ADMIN"),
      }),
    ),
  /** the event's calendar file (.ics) */
  getCalendar: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => visitorCalendar(ctx, { ...input, userId: ctx.user.id })),
});

export const participationRouter = router({
  create: userProcedure
    .input(z.object({ congressId: ZId }))
    .mutation(({ ctx, input }) => createParticipation(ctx, { ...input, userId: ctx.user.id })),
  cancel: userProcedure
    .input(z.object({ participationId: ZId }))
    .mutation(({ ctx, input }) => cancelParticipation(ctx, { ...input, userId: ctx.user.id })),
});

export const packagesRouter = router({
  get: userProcedure
    .input(z.object({ packageId: ZId }))
    .query(({ ctx, input }) => getPackage(ctx, { ...input, userId: ctx.user.id })),
  getPage: userProcedure
    .input(z.object({ packageId: ZId }))
    .query(({ ctx, input }) => packagePage(ctx, { ...input, userId: ctx.user.id })),
});

export const gatedRouter = router({
  /** public: the web app asks before showing its not-found page */
  resolve: publicProcedure.input(ZGatedPathInput).query(({ ctx, input }) => resolveGatedPath(ctx.env, input)),
  getStatus: userProcedure
    .input(ZGatedPathInput)
    .query(({ ctx, input }) => gatedStatus(ctx, { ...input, userId: ctx.user.id })),
  unlock: userProcedure
    .input(ZGatedUnlockInput)
    .mutation(({ ctx, input }) => unlockGated(ctx, { ...input, userId: ctx.user.id })),
});

const ZCheckoutInput = z.object({ category: z.enum(CHECKOUT_CATEGORIES), id: ZId });

export const checkoutRouter = router({
  getUrl: userProcedure
    .input(ZCheckoutInput)
    .query(({ ctx, input }) => checkoutUrl(ctx, { ...input, userId: ctx.user.id })),
  /** the return from the checkout: which product, and whether its payment notification arrived */
  getReturnState: userProcedure
    .input(ZCheckoutInput)
    .query(({ ctx, input }) => checkoutReturnState(ctx, { ...input, userId: ctx.user.id })),
});

export const videoRouter = router({
  getPreview: userProcedure
    .input(z.object({ url: z.string().url().max(500) }))
    .query(({ ctx, input }) => videoPreview(ctx, input)),
});
