import { describe, expect, it } from "vitest";
import { checkEfn, formatEfn, luhnValid, MSG_EFN, maskEfn, normalizeEfn } from "./efn";
import { ZEfnInput } from "./efn-input";

/*
 * Valid EFNs, their check digits worked out by hand (Luhn: from the right of the 14 digits, every first,
 * third, … digit doubled, 9 taken off a result above 9; the check digit brings the sum to a multiple of 10):
 *
 *   80 276 090 123456 ?   reversed 6 5 4 3 2 1 0 9 0 6 7 2 0 8
 *                         doubled  3 . 8 . 4 . 0 . 0 . 5 . 0 .   (12→3, 14→5)
 *                         sum 3+5+8+3+4+1+0+9+0+6+5+2+0+8 = 54   → check digit 6
 *   80 276 001 000001 ?   sum 2+0+0+0+0+0+2+0+0+6+5+2+0+8 = 25   → check digit 5
 *   80 276 055 000042 ?   sum 4+4+0+0+0+0+1+5+0+6+5+2+0+8 = 35   → check digit 5
 *
 * and two of the synthetic EFNs the EIV's test system hands out (quoted in a public repository's notes on
 * that system), which belong to nobody.
 */
const VALID = ["802760901234566", "802760010000015", "802760550000425", "802760020090329", "802760020090337"];

describe("checkEfn", () => {
  it.each(VALID)("%s is an EFN", (efn) => {
    expect(checkEfn(efn)).toEqual({ ok: true, efn });
    expect(luhnValid(efn)).toBe(true);
  });

  it.each([
    // one digit changed: Luhn finds every single wrong digit
    ["802760901234567", "last digit"],
    ["802760901234556", "a digit before the check digit"],
    ["702760901234566", "the first digit"],
    ["802760911234566", "a digit in the middle"],
    // two adjacent digits transposed
    ["802760902134566", "12 → 21"],
    ["802760901243566", "34 → 43"],
    ["082760901234566", "80 → 08"],
    ["802760901234656", "56 → 65 before the check digit"],
  ])("%s (%s) has a wrong check digit", (efn) => {
    expect(checkEfn(efn)).toEqual({ ok: false, problem: "checkDigit", message: MSG_EFN.checkDigit });
  });

  it("misses a transposition of 0 and 9, the one Luhn cannot see (documented, not hidden)", () => {
    // 80 276 0[90] 1234566 → 80 276 0[09] 1234566
    expect(checkEfn("802760091234566")).toEqual({ ok: true, efn: "802760091234566" });
  });

  it.each([
    ["80276090123456", 14],
    ["8027609012345660", 16],
    ["1", 1],
    ["80276090123456600000", 20],
  ])("%s has the wrong length (%i digits)", (input, count) => {
    const result = checkEfn(input);
    expect(result).toEqual({ ok: false, problem: "length", message: MSG_EFN.length(count) });
  });

  it("says 14 and 16 digits in words", () => {
    expect(MSG_EFN.length(14)).toBe("Die EFN hat 15 Ziffern, Ihre Eingabe hat 14 Ziffern.");
    expect(MSG_EFN.length(1)).toBe("Die EFN hat 15 Ziffern, Ihre Eingabe hat 1 Ziffer.");
  });

  it.each([
    "80276O901234566",
    "8O2760901234566x",
    "abc",
    "802760901234566a",
    "8027609012345６6",
    "+802760901234566",
  ])("%s holds other characters than digits", (input) => {
    expect(checkEfn(input)).toEqual({ ok: false, problem: "notDigits", message: MSG_EFN.notDigits });
  });

  it.each([
    ["80 276 090 123456 6", "groups as printed under the barcode"],
    ["802 760 901 234 566", "groups of three"],
    ["80-276-090-123456-6", "hyphens"],
    ["80.276.090.123456.6", "dots"],
    ["80276/090123456/6", "slashes"],
    ["80\u00a0276\u202f090 123456\u20136", "no-break spaces and an en dash from a copied text"],
    ["802760901234566\r\n", "the line break a scanner types after the number"],
    ["\t802760901234566\t", "tabs"],
    ["EFN: 80 276 090 123456 6", "a label copied from a certificate"],
    ["efn802760901234566", "a label in lower case"],
  ])("%j is read as 802760901234566 (%s)", (input) => {
    expect(normalizeEfn(input)).toBe("802760901234566");
    expect(checkEfn(input)).toEqual({ ok: true, efn: "802760901234566" });
  });

  it.each(["", "   ", " - ", "EFN:"])("%j is no EFN at all (clears the field)", (input) => {
    expect(checkEfn(input)).toEqual({ ok: true, efn: null });
  });

  it("prints an EFN in its groups", () => {
    expect(formatEfn("802760901234566")).toBe("80 276 090 123456 6");
  });

  it("shows only the last four digits where the EFN is public, as long as the printed one", () => {
    expect(maskEfn("802760901234566")).toBe("XXXXXXXXXXX4566");
    expect(maskEfn("802760901234566")).toHaveLength(15);
  });
});

describe("ZEfnInput", () => {
  const fieldErrors = (input: unknown) => {
    const result = ZEfnInput.safeParse(input);
    return result.success ? null : result.error.issues.map((i) => [i.path.join("."), i.message]);
  };

  it("gives the 15 digits, or null for an empty field", () => {
    expect(ZEfnInput.parse({ efn: "80 276 090 123456 6" })).toEqual({ efn: "802760901234566" });
    expect(ZEfnInput.parse({ efn: "" })).toEqual({ efn: null });
  });

  it("refuses each kind of wrong input at the field with its own German message", () => {
    expect(fieldErrors({ efn: "802760901234567" })).toEqual([["efn", MSG_EFN.checkDigit]]);
    expect(fieldErrors({ efn: "80276090123456" })).toEqual([["efn", MSG_EFN.length(14)]]);
    expect(fieldErrors({ efn: "80276O901234566" })).toEqual([["efn", MSG_EFN.notDigits]]);
    expect(fieldErrors({ efn: 802760901234566 })).toEqual([["efn", MSG_EFN.text]]);
    expect(fieldErrors({ efn: "8".repeat(65) })).toEqual([["efn", MSG_EFN.tooLong]]);
  });
});
