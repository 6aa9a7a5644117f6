import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./errors";
import { MSG } from "./messages";
import { REFUSALS } from "./refusals";

const entries = Object.entries(REFUSALS);

describe("REFUSALS", () => {
  it.each(entries)("%s: the detail says more than the title", (_name, refusal) => {
    expect(refusal.detail.trim()).not.toBe("");
    expect(refusal.detail).not.toBe(refusal.title);
    // not the title again with a full stop or other words around it
    expect(refusal.detail.toLowerCase()).not.toContain(refusal.title.toLowerCase().replace(/[.!]$/, ""));
  });

  it.each(entries)("%s: an expected refusal, not the unexpected failure's text", (_name, refusal) => {
    expect(refusal.detail).not.toBe(MSG.defaultErrorDetail);
  });

  it.each(entries)("%s: has a code the API maps", (_name, refusal) => {
    expect(ERROR_CODES).toContain(refusal.code);
  });

  it("keeps the spec's titles exactly (section 8)", () => {
    expect(REFUSALS.congressNotFound.title).toBe("Kongress nicht gefunden");
    expect(REFUSALS.unknownCongress.title).toBe("Veranstaltung nicht gefunden");
    expect(REFUSALS.alreadyParticipating.title).toBe("Sie nehmen bereits teil");
    expect(REFUSALS.wrongPackagePassword.title).toBe("Falsches Passwort");
    expect(REFUSALS.packageNotFound.title).toBe("Ein Fehler ist aufgetreten");
    expect(REFUSALS.confirmMailInvalid.title).toBe("Fehler bei der E-Mail Bestätigung");
    expect(REFUSALS.loginInvalid).toMatchObject({
      title: MSG.loginServerInvalidTranslated,
      detail: MSG.loginInvalid,
    });
  });
});
