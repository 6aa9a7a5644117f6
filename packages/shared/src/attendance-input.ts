import { z } from "zod";
import { ATTENDANCE_SOURCES } from "./attendance";
import { ZId } from "./ids";

/** Opening a video of an event (or of one of its packages), or the webinar link. */
export const ZAttendanceRecordInput = z.object({
  congressId: ZId,
  source: z.enum(ATTENDANCE_SOURCES),
  /** a video of this package's page (the package belongs to the event) */
  packageId: ZId.optional(),
});
export type TAttendanceRecordInput = z.infer<typeof ZAttendanceRecordInput>;
