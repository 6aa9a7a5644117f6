import { expect, type Page } from "@playwright/test";

/** The administration's navigation: a side navigation on wide screens, folded behind "Bereiche" on phones. */
export const adminNav = (page: Page) => page.getByRole("navigation", { name: "Bereiche der Administration" });

/** A section's link in the navigation, also while the phone's menu hides it (for its aria-current). */
export const adminSectionLink = (page: Page, name: string) =>
  adminNav(page).getByRole("link", { name, exact: true, includeHidden: true });

/**
 * Opens a section of the administration (on /admin/manage) by its name, the way a user does at the page's
 * width: on a phone through the "Bereiche" menu first. Waits until the navigation marks it as the current one.
 */
export async function openAdminSection(page: Page, name: string): Promise<void> {
  const nav = adminNav(page);
  await expect(nav).toBeVisible();
  const menu = nav.getByRole("button", { name: /^Bereiche/ });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) === "false") {
    await menu.click();
  }
  await nav.getByRole("link", { name, exact: true }).click();
  await expect(adminSectionLink(page, name)).toHaveAttribute("aria-current", "page");
}
