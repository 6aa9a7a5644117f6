import { ZAttendanceRecordInput, ZHeartbeatInput, ZId, ZPresenceAnswerInput } from "@app/shared";
import { z } from "zod";
import { attendanceCertificate } from "../services/attendance/certificate";
import { answerPresenceCheck } from "../services/attendance/presence-checks";
import { attendanceOfUser, recordAttendance } from "../services/attendance/record";
import { creditHeartbeat } from "../services/attendance/watch-time";
import { router, userProcedure } from "../trpc/init";

/** Attendance per day (opening a video or the webinar link) and the visitor's confirmation. */
export const attendanceRouter = router({
  record: userProcedure
    .input(ZAttendanceRecordInput)
    .mutation(({ ctx, input }) => recordAttendance(ctx, { ...input, userId: ctx.user.id })),
  /** the player's report of what was played since the last one: the seconds credited for the video today */
  heartbeat: userProcedure
    .input(ZHeartbeatInput)
    .mutation(({ ctx, input }) => creditHeartbeat(ctx, { ...input, userId: ctx.user.id })),
  /** "Ja, ich bin da": the answer to one's own presence check (ADR 0109); passed within 120 s */
  answerPresenceCheck: userProcedure
    .input(ZPresenceAnswerInput)
    .mutation(({ ctx, input }) => answerPresenceCheck(ctx, { ...input, userId: ctx.user.id })),
  /** the visitor's own attended days per event (which cards offer a confirmation) */
  listMine: userProcedure.query(({ ctx }) => attendanceOfUser(ctx.db, ctx.user.id)),
  getCertificate: userProcedure
    .input(z.object({ congressId: ZId }))
    .query(({ ctx, input }) => attendanceCertificate(ctx, { ...input, userId: ctx.user.id })),
});
