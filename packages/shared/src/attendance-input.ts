import type { z } from "zod";
import { ATTENDANCE_SOURCES } from "./attendance";
import { zChoice, zForm } from "./field-text";
import { ZId } from "./ids";

/** Opening a video of an event (or of one of its packages), or the webinar link. */
export const ZAttendanceRecordInput = zForm({
  congressId: ZId,
  source: zChoice(ATTENDANCE_SOURCES),
  /** a video of this package's page (the package belongs to the event) */
  packageId: ZId.optional(),
});
export type TAttendanceRecordInput = z.infer<typeof ZAttendanceRecordInput>;
