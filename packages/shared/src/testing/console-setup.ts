import { afterAll, afterEach } from "vitest";
import { installConsoleGuard, takeConsoleFailure } from "./console";

/**
 * Vitest setup file (`test.setupFiles` in every package's config): fails a test that logged a
 * `console.error`/`console.warn` it did not declare with `expectConsole`. What is logged outside a test (in a
 * `beforeAll` or `afterAll`) is reported by the next test, or at the end of the file.
 */
installConsoleGuard();

function check(): void {
  const failure = takeConsoleFailure();
  if (failure) {
    throw new Error(failure);
  }
}

afterEach(check);
afterAll(check);
