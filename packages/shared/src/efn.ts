/**
 * The Einheitliche Fortbildungsnummer (EFN, ADR 0112): 15 digits that a chamber gives
 * each physician for life, e.g. 80 276 090 123456 6 — profession (80: Arzt), country (276: Deutschland, ISO
 * 3166), the issuing chamber, a running number, and a check digit by the Luhn formula over the first 14
 * (Bayerische Landesärztekammer, FAQ Fortbildungspunkte; eiv-fobi.de "Allgemeines"). Only the length and
 * the check digit are checked: the chambers publish the check digit as the test of a number, and the
 * profession and chamber codes are theirs to extend. No zod here: the pages import the texts and the
 * rule; the input schema is in efn-input.ts.
 */

export const EFN_LENGTH = 15;

export const MSG_EFN = {
  label: "Einheitliche Fortbildungsnummer (EFN)",
  hint: "15 Ziffern, zu finden auf Ihrem Arztausweis oder den Barcode-Etiketten Ihrer Kammer. Leerzeichen und Bindestriche dürfen Sie mit eingeben.",
  text: "Bitte geben Sie Ihre EFN als Text ein.",
  missing: "Bitte geben Sie Ihre EFN ein.",
  tooLong: "Die Eingabe ist zu lang für eine EFN (15 Ziffern).",
  notDigits: "Die EFN besteht nur aus Ziffern. Bitte prüfen Sie Ihre Eingabe.",
  length: (count: number) =>
    `Die EFN hat 15 Ziffern, Ihre Eingabe hat ${count} ${count === 1 ? "Ziffer" : "Ziffern"}.`,
  checkDigit:
    "Die Prüfziffer (letzte Ziffer) passt nicht zu den übrigen Ziffern. Bitte vergleichen Sie die EFN Ziffer für Ziffer mit Ihrem Arztausweis oder Ihren Barcode-Etiketten.",
  saved: "Ihre EFN wurde gespeichert.",
  cleared: "Ihre EFN wurde entfernt.",
} as const;

/**
 * What may surround the digits: any white space (also the no-break spaces of a copied text, and the line
 * break or tab a barcode scanner types after the number), hyphens and dashes, dots and slashes (the groups
 * of the printed line under a barcode and of certificates), and a leading label "EFN" or "EFN:".
 */
export const NUMBER_SEPARATORS = /[\s\u00a0\u202f\u2007\u2010-\u2015\u2212./-]/g;
const LABEL = /^\s*EFN\s*:?/i;

/** The input without label and separators; what remains must be 15 digits. */
export const normalizeEfn = (input: string): string =>
  input.replace(LABEL, "").replace(NUMBER_SEPARATORS, "");

/** Whether `digits` passes the Luhn check (its last digit is the check digit of the others). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    // from the right: the check digit as it is, every second digit before it doubled (minus 9 above 9)
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type EfnCheck =
  | { ok: true; efn: string | null }
  | { ok: false; problem: "notDigits" | "length" | "checkDigit"; message: string };

/** An entered EFN: empty is "none" (`null`), else its 15 digits, or why it is not an EFN. */
export function checkEfn(input: string): EfnCheck {
  const digits = normalizeEfn(input);
  if (digits === "") {
    return { ok: true, efn: null };
  }
  if (!/^\d+$/.test(digits)) {
    return { ok: false, problem: "notDigits", message: MSG_EFN.notDigits };
  }
  if (digits.length !== EFN_LENGTH) {
    return { ok: false, problem: "length", message: MSG_EFN.length(digits.length) };
  }
  if (!luhnValid(digits)) {
    return { ok: false, problem: "checkDigit", message: MSG_EFN.checkDigit };
  }
  return { ok: true, efn: digits };
}

/** A stored EFN as it is printed: "80 276 090 123456 6". */
export const formatEfn = (efn: string): string =>
  efn.length === EFN_LENGTH
    ? `${efn.slice(0, 2)} ${efn.slice(2, 5)} ${efn.slice(5, 8)} ${efn.slice(8, 14)} ${efn.slice(14)}`
    : efn;

/** How many digits of an EFN the public verification page shows (ADR 0117). */
export const EFN_SHOWN_DIGITS = 4;

/**
 * An EFN where anyone may read it (the public verification page): its last four digits behind an X for
 * each hidden one ("XXXXXXXXXXX4566"), as long as the unspaced EFN the certificate prints, so a verifier
 * compares the ends; the full number is a life-long identifier that stays with the document.
 */
export const maskEfn = (efn: string): string =>
  "X".repeat(Math.max(efn.length - EFN_SHOWN_DIGITS, 0)) + efn.slice(-EFN_SHOWN_DIGITS);
