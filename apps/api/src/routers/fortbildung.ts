import { ZId } from "@app/shared";
import { z } from "zod";
import { myFortbildung } from "../services/fortbildung/progress";
import { router, userProcedure } from "../trpc/init";

/** Fortbildung (issue 33): the participant's own days of an event. */
export const fortbildungRouter = router({
  /** null for an event without Fortbildung */
  getMyDays: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => myFortbildung(ctx.db, { ...input, userId: ctx.user.id })),
});
