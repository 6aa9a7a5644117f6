import { describe, expect, it } from "vitest";
import { imageFileProblem, MAX_IMAGE_BYTES } from "./images";

describe("imageFileProblem: the browser's check before an upload", () => {
  it("names the limit and the file's size when it is too large", () => {
    expect(imageFileProblem({ size: 6 * 1024 * 1024, type: "image/png" })).toBe(
      "Das Bild ist 6,0 MB groß; erlaubt sind höchstens 5 MB. Bitte verkleinern Sie es und wählen Sie es dann erneut.",
    );
    expect(imageFileProblem({ size: MAX_IMAGE_BYTES, type: "image/webp" })).toBeNull();
  });

  it("takes PNG, JPEG and WebP only", () => {
    expect(imageFileProblem({ size: 10, type: "image/jpeg" })).toBeNull();
    for (const type of ["image/gif", "application/pdf", ""]) {
      expect(imageFileProblem({ size: 10, type })).toBe(
        "Bitte wählen Sie ein Bild im Format PNG, JPEG oder WebP.",
      );
    }
    expect(imageFileProblem({ size: 0, type: "image/png" })).not.toBeNull();
  });
});
