import { z } from "zod";
import "./zod-locale";
import { searchTooLong, tooLong } from "./text";

/**
 * Product text for the refusals the forms do not word themselves (ADR 0088): each check of a shared
 * schema says what is wrong with its field, never zod's "Zu klein: erwartet, dass number >0 ist".
 * `schema-messages.test.ts` walks every exported schema and fails on a check that would fall back to
 * zod's locale.
 */
export const MSG_FIELD = {
  /** the request's body is not the object the form sends (a hand-made request, an outdated page) */
  form: "Die gesendeten Angaben sind unvollständig. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
  text: "Bitte geben Sie einen Text ein.",
  number: "Bitte geben Sie eine Zahl ein.",
  yesNo: "Bitte wählen Sie Ja oder Nein.",
  choice: "Bitte wählen Sie einen der angebotenen Werte.",
  page: "Diese Seite der Tabelle gibt es nicht.",
  date: "Bitte wählen Sie ein gültiges Datum.",
} as const;

export { searchTooLong, tooLong } from "./text";

/** A text of at most `max` characters; `the` names it ("Der Titel"), `missing` is said when it is no text. */
export const zText = (max: number, the: string, missing: string = MSG_FIELD.text) =>
  z.string({ error: missing }).max(max, tooLong(the, max));

/** A search or filter text of a table (trimmed, empty by default); its field says the same when too long. */
export const zSearch = (max: number) =>
  z.string({ error: MSG_FIELD.text }).trim().max(max, searchTooLong(max)).default("");

/** The fields of one form or request; anything but an object is refused as `MSG_FIELD.form`. */
export const zForm = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.object(shape, { error: MSG_FIELD.form });

/** A choice among fixed values. */
export const zChoice = <const T extends readonly [string, ...string[]]>(
  values: T,
  message: string = MSG_FIELD.choice,
) => z.enum(values, { error: message });

/** a flag from JSON or a form: true/false, "true"/"false", "1"/"0" (never "false" read as true) */
export const zFlag = z
  .union([z.boolean({ error: MSG_FIELD.yesNo }), zChoice(["true", "false", "1", "0"], MSG_FIELD.yesNo)], {
    error: MSG_FIELD.yesNo,
  })
  .transform((v) => v === true || v === "true" || v === "1");
