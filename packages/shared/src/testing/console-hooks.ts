import { afterAll, afterEach } from "vitest";
import { type ConsoleFormat, installConsoleGuard, takeConsoleFailure } from "./console";

/**
 * Fails a test that logged a `console.error`/`console.warn` it did not declare with `expectConsole`. What is
 * logged outside a test (in a `beforeAll` or `afterAll`) is reported by the next test, or at the end of the
 * file. Called by the setup files, each with the console's formatting of its runtime.
 */
export function failTestsOnConsoleOutput(format: ConsoleFormat): void {
  installConsoleGuard(format);
  afterEach(check);
  afterAll(check);
}

function check(): void {
  const failure = takeConsoleFailure();
  if (failure) {
    throw new Error(failure);
  }
}
