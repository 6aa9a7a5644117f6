import { ZFortbildungDayInput, ZId } from "@app/shared";
import { z } from "zod";
import { fortbildungSection } from "../services/fortbildung/admin";
import { myFortbildung } from "../services/fortbildung/progress";
import { adminProcedure, router, userProcedure } from "../trpc/init";

/** Fortbildung (ADR 0105): the participant's own days of an event. */
export const fortbildungRouter = router({
  /** null for an event without Fortbildung */
  getMyDays: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => myFortbildung(ctx.db, { ...input, userId: ctx.user.id })),
});

/**
 * The organiser's section "Fortbildung" (`admin.fortbildung`): a day of an event's participants. The import
 * of webinar participant reports (ADR 0107) belongs here too.
 */
export const adminFortbildungRouter = router({
  getDay: adminProcedure
    .input(ZFortbildungDayInput)
    .query(({ ctx, input }) => fortbildungSection(ctx, input)),
});
