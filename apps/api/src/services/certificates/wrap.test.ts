import { describe, expect, it } from "vitest";
import { wrap } from "./wrap";

/** one unit per character: a line of width 10 holds ten */
const measure = (text: string) => [...text].length;

describe("wrap", () => {
  it("breaks at spaces while the words fit", () => {
    expect(wrap("Anna Maria Muster", 10, measure)).toEqual(["Anna Maria", "Muster"]);
    expect(wrap("Erste Zeile\nzweite", 20, measure)).toEqual(["Erste Zeile", "zweite"]);
  });

  it("breaks a word wider than the line after its hyphens", () => {
    expect(wrap("Anne-Marie-Luise-Charlotte Muster", 12, measure)).toEqual([
      "Anne-Marie-",
      "Luise-",
      "Charlotte",
      "Muster",
    ]);
  });

  it("breaks a piece still too wide between any two characters, accents and syllables kept whole", () => {
    expect(wrap("Donaudampfschifffahrt", 8, measure)).toEqual(["Donaudam", "pfschiff", "fahrt"]);
    expect(wrap("Nguye\u0302\u0303n-Thi\u0323", 4, (t) => t.normalize("NFC").length)).toEqual([
      "Nguy",
      "e\u0302\u0303n-",
      "Thi\u0323",
    ]);
    expect(wrap("小龍李小龍李", 4, measure)).toEqual(["小龍李小", "龍李"]);
  });
});
