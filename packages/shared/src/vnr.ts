import { z } from "zod";
import { NUMBER_SEPARATORS } from "./efn";
import "./zod-locale";

/**
 * The Veranstaltungsnummer (VNR): the number a chamber assigns to a recognised measure of continuing
 * education, 19 digits (eiv-fobi.de, Glossar), with which the organiser reports its participants' EFNs.
 * The event has one (ADR 0105), a learning check for a recording its own (a measure of its own). No
 * check digit is published, so only the count of digits is checked. One schema for the event form and the
 * learning check's editor, the same on server and form.
 */

export const VNR_LENGTH = 19;

export const MSG_VNR = {
  hint: "19 Ziffern, wie von der Kammer vergeben. Leerzeichen und Bindestriche dürfen Sie mit eingeben.",
  text: "Bitte geben Sie die VNR als Text ein.",
  tooLong: "Die Eingabe ist zu lang für eine VNR (19 Ziffern).",
  notDigits: "Die VNR besteht nur aus Ziffern (19 Ziffern; Leerzeichen und Bindestriche werden entfernt).",
  length: (count: number) =>
    `Die VNR hat 19 Ziffern, Ihre Eingabe hat ${count} ${count === 1 ? "Ziffer" : "Ziffern"}.`,
} as const;

/**
 * What may surround the digits, as for the EFN (ADR 0112, `NUMBER_SEPARATORS`): any white space,
 * hyphens and dashes, dots and slashes, and a leading label "VNR" or "VNR:".
 */
const LABEL = /^\s*VNR\s*:?/i;

/** The input without label and separators; what remains must be 19 digits. */
export const normalizeVnr = (input: string): string =>
  input.replace(LABEL, "").replace(NUMBER_SEPARATORS, "");

export type VnrCheck = { ok: true; vnr: string | null } | { ok: false; message: string };

/** An entered VNR: empty is "none" (`null`), else its 19 digits, or why it is not a VNR. */
export function checkVnr(input: string): VnrCheck {
  const digits = normalizeVnr(input);
  if (digits === "") {
    return { ok: true, vnr: null };
  }
  if (!/^[0-9]+$/.test(digits)) {
    return { ok: false, message: MSG_VNR.notDigits };
  }
  if (digits.length !== VNR_LENGTH) {
    return { ok: false, message: MSG_VNR.length(digits.length) };
  }
  return { ok: true, vnr: digits };
}

/** A VNR as typed or pasted: its 19 digits, or `null` for an empty field. */
export const zVnr = z
  .string({ error: MSG_VNR.text })
  .max(100, MSG_VNR.tooLong)
  .transform((input, ctx) => {
    const result = checkVnr(input);
    if (result.ok) {
      return result.vnr;
    }
    ctx.issues.push({ code: "custom", message: result.message, input });
    return z.NEVER;
  });
