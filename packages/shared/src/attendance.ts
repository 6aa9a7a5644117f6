/** No zod here: the overview imports these texts; the input schema is in attendance-input.ts. */

/** What was opened first on a day: a video (after the consent click) or the webinar link. */
export const ATTENDANCE_SOURCES = ["video", "webinar"] as const;
export type AttendanceSource = (typeof ATTENDANCE_SOURCES)[number];

/** Length of a webinar in the calendar file; the product stores only the start time. */
export const WEBINAR_CALENDAR_MINUTES = 120;

export const MSG_ATTENDANCE = {
  refusedTitle: "Teilnahme nicht erfasst",
  refused: "Für diese Veranstaltung können Sie heute nicht teilnehmen.",
  noAttendanceTitle: "Keine Teilnahme",
  noAttendance: "Für diese Veranstaltung ist keine Teilnahme von Ihnen erfasst.",
  certificateTitle: "Teilnahmebestätigung",
  addToCalendar: "In den Kalender eintragen",
} as const;
