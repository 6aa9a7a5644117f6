import { describe, expect, it } from "vitest";
import { checkoutPendingMessage, checkoutReturnMessage } from "./checkout-return";
import { MSG } from "./messages";

const none = { ticket: false, packages: [] };

describe("checkoutReturnMessage", () => {
  it("thanks for nothing while nothing is unlocked", () => {
    for (const category of ["pac", "tic", "ticpac"] as const) {
      expect(
        checkoutReturnMessage(category, { name: "X", unlocked: none, eventHasPackage: true }),
      ).toBeNull();
    }
  });

  it("a package: names the package", () => {
    const message = checkoutReturnMessage("pac", {
      name: "Paket P",
      unlocked: { ticket: false, packages: ["Paket P"] },
      eventHasPackage: true,
    });
    expect(message).toEqual({
      title: MSG.checkoutReturnTitle,
      detail:
        "Ihre Zahlung ist bestätigt: Das Kongresspaket „Paket P“ ist freigeschaltet. Sie finden es hier in Ihrer Übersicht.",
    });
  });

  it("a ticket: the sign-up, nothing about a package", () => {
    const message = checkoutReturnMessage("tic", {
      name: "Kongress K",
      unlocked: { ticket: true, packages: [] },
      eventHasPackage: true,
    });
    expect(message?.detail).toBe(
      "Ihre Zahlung ist bestätigt: Sie sind für „Kongress K“ angemeldet und finden die Veranstaltung hier in Ihrer Übersicht.",
    );
  });

  it("ticket and package: both only when both are unlocked", () => {
    const both = checkoutReturnMessage("ticpac", {
      name: "Kongress K",
      unlocked: { ticket: true, packages: ["Paket P"] },
      eventHasPackage: true,
    });
    expect(both?.detail).toContain(
      "Sie sind für „Kongress K“ angemeldet, und das Kongresspaket ist freigeschaltet.",
    );
  });

  it("ticket and package with only the ticket unlocked: the ticket, and why no package", () => {
    const notIncluded = checkoutReturnMessage("ticpac", {
      name: "Kongress K",
      unlocked: { ticket: true, packages: [] },
      eventHasPackage: true,
    });
    expect(notIncluded?.detail).toBe(
      `Ihre Zahlung ist bestätigt: Sie sind für „Kongress K“ angemeldet und finden die Veranstaltung hier in Ihrer Übersicht. ${MSG.checkoutReturnPackageNotIncluded}`,
    );
    expect(notIncluded?.detail).not.toContain("Kongresspaket ist freigeschaltet");
    const noPackage = checkoutReturnMessage("ticpac", {
      name: "Kongress K",
      unlocked: { ticket: true, packages: [] },
      eventHasPackage: false,
    });
    expect(noPackage?.detail).toContain(MSG.checkoutReturnNoPackage);
  });

  it("ticket and package with only the package unlocked: the package, and that the ticket is not", () => {
    const message = checkoutReturnMessage("ticpac", {
      name: "Kongress K",
      unlocked: { ticket: false, packages: ["Paket P"] },
      eventHasPackage: true,
    });
    expect(message?.detail).toContain("Das Kongresspaket „Paket P“ ist freigeschaltet.");
    expect(message?.detail).toContain(MSG.checkoutReturnTicketNotIncluded);
    expect(message?.detail).not.toContain("angemeldet");
  });
});

describe("checkoutPendingMessage", () => {
  it("names the product in quotes once known, and reads naturally without it", () => {
    expect(checkoutPendingMessage("processing", "Kongress K").detail).toContain(
      "Zahlungsbestätigung für „Kongress K“.",
    );
    expect(checkoutPendingMessage("delayed", "Kongress K").detail).toMatch(
      /^Ihre Zahlung für „Kongress K“ wird noch bearbeitet; /,
    );
    for (const stage of ["processing", "delayed"] as const) {
      const { detail } = checkoutPendingMessage(stage, undefined);
      expect(detail).not.toMatch(/[„“{}]/);
      expect(detail).not.toContain("Ihren Kauf“");
    }
    expect(checkoutPendingMessage("delayed", undefined).detail).toMatch(
      /^Ihre Zahlung wird noch bearbeitet; /,
    );
    expect(checkoutPendingMessage("delayed", undefined).title).toBe(MSG.checkoutDelayedTitle);
  });
});
