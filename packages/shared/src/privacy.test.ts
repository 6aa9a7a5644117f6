import { describe, expect, it } from "vitest";
import { isLegalImageSrc, isLegalLinkHref } from "./privacy";

describe("the legal pages' allow-list (API sanitiser and web renderer)", () => {
  it("takes our own uploads as images, nothing else", () => {
    expect(isLegalImageSrc("/uploads/images/logo.webp")).toBe(true);
    for (const src of [
      "https://tracker.example.net/p.gif",
      "//tracker.example.net/uploads/images/p.gif",
      "https://app.test/uploads/images/logo.webp",
      "/uploads/images/../secret.png",
      "/uploads/images/a/b.png",
      "/uploads/images/logo.webp?track=1",
      "data:image/png;base64,AAAA",
      "",
    ]) {
      expect(isLegalImageSrc(src), src).toBe(false);
    }
  });

  it("takes web, mail and phone links, in any case, and no script", () => {
    for (const href of [
      "https://example.com",
      "HTTP://example.com",
      "mailto:a@example.com",
      "tel:+4930123",
    ]) {
      expect(isLegalLinkHref(href), href).toBe(true);
    }
    for (const href of ["javascript:alert(1)", "data:text/html,x", "vbscript:x", "ftp://example.com", ""]) {
      expect(isLegalLinkHref(href), href).toBe(false);
    }
  });
});
