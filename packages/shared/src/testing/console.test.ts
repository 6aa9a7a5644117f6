import { describe, expect, test } from "vitest";
import { expectConsole, formatInBrowser, takeConsoleFailure } from "./console";

// The guard itself: each test reads the failure the setup file would throw, which also clears it.
describe("console guard", () => {
  test("reports an undeclared console.error with its formatted text and where it came from", () => {
    console.error("Zahlung %s fehlgeschlagen", "42");
    const failure = takeConsoleFailure();
    expect(failure).toContain("console.error: Zahlung 42 fehlgeschlagen");
    expect(failure).toContain("console.test.ts");
  });

  test("reports an undeclared console.warn", () => {
    console.warn("veraltet");
    expect(takeConsoleFailure()).toContain("console.warn: veraltet");
  });

  test("lets a declared message through and reports nothing", () => {
    expectConsole("error", /Zahlung \d+/);
    console.error("Zahlung 7 fehlgeschlagen");
    expect(takeConsoleFailure()).toBeUndefined();
  });

  test("a declaration only covers its level", () => {
    expectConsole("error", "veraltet");
    console.warn("veraltet");
    const failure = takeConsoleFailure();
    expect(failure).toContain("console.warn: veraltet");
    expect(failure).toContain('expectConsole("error", "veraltet") was declared, but no such message came');
  });

  test("reports a declaration nothing met", () => {
    expectConsole("warn", /nie/);
    expect(takeConsoleFailure()).toContain(
      'expectConsole("warn", /nie/) was declared, but no such message came',
    );
  });
});

// the browser's stand-in for util.format (the web app's component tests): what React's warnings need
describe("formatInBrowser", () => {
  test("fills the placeholders of the first string and joins what is left", () => {
    expect(formatInBrowser("Zahlung %s von %d Euro", "42", 17, "offen")).toBe("Zahlung 42 von 17 Euro offen");
  });

  test("drops the CSS of %c, keeps %% and placeholders without an argument", () => {
    expect(formatInBrowser("%cfett%% %s", "font-weight: bold")).toBe("fett% %s");
  });

  test("shows objects as JSON and errors with their message", () => {
    expect(formatInBrowser({ id: 1 }, [2])).toBe('{"id":1} [2]');
    expect(formatInBrowser(new Error("kaputt"))).toContain("kaputt");
  });
});
