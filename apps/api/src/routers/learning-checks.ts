import {
  ZId,
  ZLearningCheckInput,
  ZLearningCheckListInput,
  ZLearningCheckStartInput,
  ZLearningCheckSubmitInput,
} from "@app/shared";
import { z } from "zod";
import {
  deleteLearningCheck,
  getLearningCheck,
  pageLearningChecks,
  saveLearningCheck,
} from "../services/learning-checks/admin";
import { packageLearningChecks, startLearningCheck } from "../services/learning-checks/participant";
import { submitLearningCheck } from "../services/learning-checks/submit";
import { adminProcedure, router, userProcedure } from "../trpc/init";

const byId = z.object({ id: ZId });

/** A buyer's learning-success checks of a package (ADR 0119, ADR 0121): the answer key stays on the server. */
export const learningChecksRouter = router({
  /** the package's offered checks with the caller's standing (bought, watched, attempts) */
  listForPackage: userProcedure
    .input(z.object({ packageId: ZId }))
    .query(({ ctx, input }) => packageLearningChecks(ctx, { ...input, userId: ctx.user.id })),
  start: userProcedure
    .input(ZLearningCheckStartInput)
    .mutation(({ ctx, input }) => startLearningCheck(ctx, { ...input, userId: ctx.user.id })),
  submit: userProcedure
    .input(ZLearningCheckSubmitInput)
    .mutation(({ ctx, input }) => submitLearningCheck(ctx, { ...input, userId: ctx.user.id })),
});

/** The section "Lernerfolgskontrollen" (`admin.learningChecks`); every write audited. */
export const adminLearningChecksRouter = router({
  getPage: adminProcedure
    .input(ZLearningCheckListInput)
    .query(({ ctx, input }) => pageLearningChecks(ctx.db, input)),
  get: adminProcedure.input(byId).query(({ ctx, input }) => getLearningCheck(ctx.db, input.id)),
  save: adminProcedure
    .input(ZLearningCheckInput)
    .mutation(({ ctx, input }) => saveLearningCheck(ctx.db, input, ctx.user.id)),
  delete: adminProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteLearningCheck(ctx.db, input.id, ctx.user.id)),
});
