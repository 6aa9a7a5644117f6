import { ZAttendanceRecordInput } from "@app/shared";
import { z } from "zod";
import { attendanceCertificate } from "../services/attendance/certificate";
import { attendanceOfUser, recordAttendance } from "../services/attendance/record";
import { router, userProcedure } from "../trpc/init";

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** Attendance per day (opening a video or the webinar link) and the visitor's confirmation. */
export const attendanceRouter = router({
  record: userProcedure
    .input(ZAttendanceRecordInput)
    .mutation(({ ctx, input }) => recordAttendance(ctx, input)),
  /** the visitor's own attended days per event (which cards offer a confirmation) */
  mine: userProcedure.query(({ ctx }) => attendanceOfUser(ctx.db, ctx.user.id)),
  certificate: userProcedure
    .input(z.object({ congressId: id }))
    .query(({ ctx, input }) => attendanceCertificate(ctx, input.congressId)),
});
