import { z } from "zod";
import { ATTENDANCE_SOURCES } from "./attendance";

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** Opening a video of an event (or of one of its packages), or the webinar link. */
export const ZAttendanceRecordInput = z.object({
  congressId: id,
  source: z.enum(ATTENDANCE_SOURCES),
  /** a video of this package's page (the package belongs to the event) */
  packageId: id.optional(),
});
export type TAttendanceRecordInput = z.infer<typeof ZAttendanceRecordInput>;
