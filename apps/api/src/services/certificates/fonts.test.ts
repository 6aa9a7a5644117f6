import { isNameCharacter } from "@app/shared";
import { describe, expect, it } from "vitest";
import { fontChains } from "./fonts";

/** The name rule (packages/shared person-name.ts) takes only what the certificate's fonts can print. */
describe("the certificate's fonts", () => {
  it("have a glyph, regular and bold, for every character a name may hold", async () => {
    const chains = await fontChains();
    const accepted = Array.from({ length: 0x110000 }, (_, c) => c).filter(
      (c) => (c < 0xd800 || c > 0xdfff) && isNameCharacter(String.fromCodePoint(c)),
    );
    expect(accepted.length).toBeGreaterThan(40_000);
    for (const [weight, chain] of Object.entries(chains)) {
      const missing = accepted.filter((c) => !chain.some((face) => face.font.hasGlyphForCodePoint(c)));
      expect(
        missing.map((c) => `U+${c.toString(16).toUpperCase()}`),
        `${weight} lacks`,
      ).toEqual([]);
    }
  });
});
