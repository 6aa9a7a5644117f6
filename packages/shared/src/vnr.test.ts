import { describe, expect, it } from "vitest";
import { ZCongressInput } from "./admin";
import { ZLearningCheckInput } from "./learning-checks";
import { checkVnr, MSG_VNR, normalizeVnr } from "./vnr";

/** A VNR as the chambers assign it (eiv-fobi.de, Glossar): 19 digits. */
const VNR = "2760602026000123456";

const event = (vnr: unknown) => ({
  title: "Kongress",
  description: "Beschreibung",
  firstCongressDay: { date: "2026-11-23" },
  vnr,
});
const check = (vnr: unknown) => ({
  packageId: "3",
  day: "",
  passPercent: "70",
  questions: [
    {
      question: "Frage?",
      answers: [
        { text: "A", correct: true },
        { text: "B", correct: false },
        { text: "C", correct: false },
      ],
    },
  ],
  vnr,
});

/** The one VNR field of the event form and of the learning check: what it stores, or its message. */
const outcomes = (input: unknown) => {
  const read = (schema: typeof ZCongressInput | typeof ZLearningCheckInput, value: unknown) => {
    const result = schema.safeParse(value);
    return result.success
      ? { vnr: (result.data as { vnr?: string | null }).vnr }
      : { messages: result.error.issues.filter((i) => i.path[0] === "vnr").map((i) => i.message) };
  };
  return [read(ZCongressInput, event(input)), read(ZLearningCheckInput, check(input))];
};

describe("the VNR of an event and of a learning check", () => {
  it.each([
    [VNR, VNR],
    [` ${VNR} `, VNR],
    // pasted in groups, with no-break spaces, a tab or a line break from a copied letter
    ["276 0602 0260 0012 3456", VNR],
    ["2760602026\u00a0000123456", VNR],
    [`${VNR}\t`, VNR],
    ["2760-6020-2600-0123-456", VNR],
    ["276.0602.026.000123456", VNR],
    ["276/0602/026/000123456", VNR],
    [`VNR: ${VNR}`, VNR],
    [`vnr ${VNR}`, VNR],
    // empty: none
    ["", null],
    ["   ", null],
  ])("stores %j as %j", (input, stored) => {
    expect(outcomes(input)).toEqual([{ vnr: stored }, { vnr: stored }]);
  });

  it.each([
    ["276060202600012345", MSG_VNR.length(18)],
    ["27606020260001234567", MSG_VNR.length(20)],
    ["1", MSG_VNR.length(1)],
    ["VNR-1", MSG_VNR.length(1)],
    ["2760602026OOO123456", MSG_VNR.notDigits],
    ["２７６０６０２０２６０００１２３４５６", MSG_VNR.notDigits],
    ["Kongress 2026", MSG_VNR.notDigits],
    ["x".repeat(101), MSG_VNR.tooLong],
    [19, MSG_VNR.text],
  ])("refuses %j with a German message at the field", (input, message) => {
    expect(outcomes(input)).toEqual([{ messages: [message] }, { messages: [message] }]);
  });

  it("leaves the event's VNR out of a save that does not name it (the spec's REST form)", () => {
    const { vnr: _vnr, ...withoutVnr } = event(undefined);
    expect(ZCongressInput.parse(withoutVnr).vnr).toBeUndefined();
  });
});

describe("checkVnr", () => {
  it("says the count in words", () => {
    expect(MSG_VNR.length(18)).toBe("Die VNR hat 19 Ziffern, Ihre Eingabe hat 18 Ziffern.");
    expect(MSG_VNR.length(1)).toBe("Die VNR hat 19 Ziffern, Ihre Eingabe hat 1 Ziffer.");
  });

  it("drops separators and a leading label, nothing else", () => {
    expect(normalizeVnr(" VNR: 276 0602-026.000/123456 ")).toBe(VNR);
    expect(normalizeVnr("27606O2")).toBe("27606O2");
    expect(checkVnr("2760602026000123456")).toEqual({ ok: true, vnr: VNR });
    expect(checkVnr("")).toEqual({ ok: true, vnr: null });
  });
});
