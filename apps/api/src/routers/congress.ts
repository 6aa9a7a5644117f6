import { CHECKOUT_CATEGORIES, ZId } from "@app/shared";
import { z } from "zod";
import { visitorCalendar } from "../services/calendar/event-calendar";
import { checkoutUrl } from "../services/visitor/checkout";
import { eventContent, getEvent } from "../services/visitor/events";
import { gatedStatus, resolveGatedPath, unlockGated } from "../services/visitor/gated";
import { overview } from "../services/visitor/overview";
import { getPackage, listPackages, packagePage } from "../services/visitor/packages";
import { cancelParticipation, createParticipation } from "../services/visitor/participation";
import { videoPreview } from "../services/visitor/video-preview";
import { loadViewer } from "../services/visitor/viewer";
import { publicProcedure, router, userProcedure } from "../trpc/init";

const path = z.string().min(1).max(300);

export const congressRouter = router({
  overview: userProcedure.query(({ ctx }) => overview(ctx)),
  get: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => getEvent(ctx, input.congressId)),
  content: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => eventContent(ctx, input.congressId)),
  /** the event's calendar file (.ics) */
  calendar: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => visitorCalendar(ctx, input.congressId)),
});

export const participationRouter = router({
  create: userProcedure
    .input(z.object({ congressId: ZId }))
    .mutation(({ ctx, input }) => createParticipation(ctx, input.congressId)),
  cancel: userProcedure
    .input(z.object({ participationId: ZId }))
    .mutation(({ ctx, input }) => cancelParticipation(ctx, input.participationId)),
});

export const packagesRouter = router({
  list: userProcedure.query(async ({ ctx }) => listPackages(ctx.db, await loadViewer(ctx))),
  get: userProcedure
    .input(z.object({ packageId: ZId }))
    .query(({ ctx, input }) => getPackage(ctx, input.packageId)),
  page: userProcedure
    .input(z.object({ packageId: ZId }))
    .query(({ ctx, input }) => packagePage(ctx, input.packageId)),
});

export const gatedRouter = router({
  /** public: the web app asks before showing its not-found page */
  resolve: publicProcedure
    .input(z.object({ path }))
    .query(({ ctx, input }) => resolveGatedPath(ctx.env, input.path)),
  status: userProcedure.input(z.object({ path })).query(({ ctx, input }) => gatedStatus(ctx, input.path)),
  unlock: userProcedure
    .input(z.object({ path, password: z.string().max(200) }))
    .mutation(({ ctx, input }) => unlockGated(ctx, input.path, input.password)),
});

export const checkoutRouter = router({
  url: userProcedure
    .input(z.object({ category: z.enum(CHECKOUT_CATEGORIES), id: ZId }))
    .query(({ ctx, input }) => checkoutUrl(ctx, input.category, input.id)),
});

export const videoRouter = router({
  preview: userProcedure
    .input(z.object({ url: z.string().url().max(500) }))
    .query(({ ctx, input }) => videoPreview(ctx, input.url)),
});
