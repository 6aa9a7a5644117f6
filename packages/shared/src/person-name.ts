import { z } from "zod";
import "./zod-locale";
import { tooLong } from "./field-text";

/**
 * The one rule for the names of people (ADR 0128), used by every schema that takes one:
 * registration and the admin's user dialog. A name is printed on certificates, so it holds only what
 * prints: letters (and combining accents) of the scripts the certificate's fonts carry — Latin with
 * Vietnamese, Greek, Cyrillic, Chinese, Japanese, Korean — spaces, hyphens, apostrophes and periods.
 * Emoji, symbols, digits, control characters and text-direction overrides are refused. A test in the
 * API (`certificates/fonts.test.ts`) checks that every character this rule takes has a glyph there.
 */

export const MSG_NAME = {
  invalid:
    "Der Name darf nur Buchstaben (lateinisch, griechisch, kyrillisch, chinesisch, japanisch oder koreanisch), Leerzeichen, Bindestriche, Apostrophe und Punkte enthalten.",
  /** names that are free text (the organiser, the signatory "Dr. Anna Muster, Leitung") */
  controls: "Der Name darf keine Steuerzeichen enthalten (etwa unsichtbare Zeichen für die Schreibrichtung).",
} as const;

/**
 * Control (Cc) and format (Cf) characters: a bell, a line break, text-direction overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), U+200E/F. No name holds one; migration 0021 took them out of stored names.
 */
export const hasControlCharacters = (value: string) => /[\p{Cc}\p{Cf}]/u.test(value);

/** The longest first or last name. */
export const MAX_NAME_LENGTH = 100;

/**
 * Where a name's letters may come from, as Unicode blocks (first, last code point); within them only
 * letters and non-spacing marks count. The ends leave out what the fonts lack (e.g. the newest CJK
 * ideographs after U+9FD0).
 */
export const NAME_LETTER_RANGES: readonly (readonly [number, number, string])[] = [
  [0x0041, 0x005a, "Basic Latin, capitals"],
  [0x0061, 0x007a, "Basic Latin, small letters"],
  [0x00c0, 0x024f, "Latin-1 letters, Latin Extended-A and -B"],
  [0x0250, 0x02af, "IPA letters used by African orthographies (ɛ, ɔ, ɗ)"],
  [0x02b0, 0x02ff, "modifier letters (ʻokina, ʼ)"],
  [0x0300, 0x034e, "combining accents (not U+034F, the invisible grapheme joiner)"],
  [0x0370, 0x03ff, "Greek"],
  [0x0400, 0x0525, "Cyrillic and its supplement"],
  [0x1100, 0x11ff, "Hangul Jamo"],
  [0x1e00, 0x1efb, "Latin Extended Additional (Vietnamese)"],
  [0x1f00, 0x1fff, "Greek Extended (polytonic)"],
  [0x3005, 0x3006, "ideographic iteration mark 々 and 〆"],
  [0x3041, 0x309f, "Hiragana, with the combining voicing marks"],
  [0x30a1, 0x30ff, "Katakana, with the prolonged sound mark ー (not the middle dot U+30FB)"],
  [0x3131, 0x318e, "Hangul compatibility Jamo"],
  [0x31f0, 0x31ff, "Katakana phonetic extensions"],
  [0x3400, 0x4db5, "CJK ideographs, extension A"],
  [0x4e00, 0x9fd0, "CJK unified ideographs"],
  [0xa960, 0xa97c, "Hangul Jamo extended-A"],
  [0xac00, 0xd7a3, "Hangul syllables"],
  [0xd7b0, 0xd7fb, "Hangul Jamo extended-B"],
];

const hex = (c: number) => `\\u{${c.toString(16)}}`;
const letters = NAME_LETTER_RANGES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join("");
/** one character of a name: a letter or mark of the ranges, a space, hyphen, apostrophe (' ’) or period */
const NAME_CHARACTER = new RegExp(`^(?:(?=[\\p{L}\\p{Mn}])[${letters}]|[ '\u2019.\\-])$`, "u");

/** Whether `character` (one code point) may stand in a name, as the rule takes it (after `normalizeName`). */
export function isNameCharacter(character: string): boolean {
  return NAME_CHARACTER.test(character);
}

/** A name as stored: NFC, every run of spaces (also no-break and ideographic ones) one space, trimmed. */
export function normalizeName(value: string): string {
  return value
    .normalize("NFC")
    .replace(/\p{Zs}+/gu, " ")
    .trim();
}

/** Whether a normalized name holds only what the rule allows. */
export function isPersonName(value: string): boolean {
  for (const character of value) {
    if (!isNameCharacter(character)) {
      return false;
    }
  }
  return true;
}

/**
 * A first or last name field: normalized, then `missing` when empty, "… darf höchstens 100 Zeichen lang
 * sein." when long, `MSG_NAME.invalid` for a character outside the rule.
 */
export const zPersonName = (the: string, missing: string) =>
  z
    .string({ error: missing })
    .transform(normalizeName)
    .pipe(
      z
        .string({ error: missing })
        .min(1, missing)
        .max(MAX_NAME_LENGTH, tooLong(the, MAX_NAME_LENGTH))
        .refine(isPersonName, MSG_NAME.invalid),
    );
