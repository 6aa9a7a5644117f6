import axe from "axe-core";
import { expect } from "vitest";
import { page, userEvent } from "vitest/browser";

/** The rules `expectAccessible` of the e2e suite runs (e2e/fixtures.ts): WCAG 2.1 A and AA. */
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Waits for the open dialog named `name` (a dialog or alertdialog), then runs axe on the whole document
 * with the dialog on screen, as the e2e suite did (ADR 0138). Fails naming the dialog and, for each
 * violation, its rule, what it asks for and the elements it found.
 */
export async function expectDialogAccessible(name: string | RegExp): Promise<void> {
  const dialog = page
    .getByRole("dialog", { name, exact: true })
    .or(page.getByRole("alertdialog", { name, exact: true }));
  await expect.element(dialog).toBeVisible();
  // the pointer on the dialog holds a message open while axe reads it (ADR 0086)
  await userEvent.hover(dialog);
  const { violations } = await axe.run(document, { runOnly: { type: "tag", values: WCAG_21_AA } });
  // one line per violation: its rule, what the rule asks for and the elements that break it
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(found, `axe on the dialog "${String(name)}"`).toEqual([]);
}
