import { expect, type Page } from "@playwright/test";

export const DEMO = {
  participant: { email: "teilnehmer@example.com", password: "demo-user-2026" },
  admin: { email: "admin@example.com", password: "demo-admin-2026" },
};

const mailApi = () => `http://127.0.0.1:${process.env.E2E_MAIL_PORT}`;

interface MailDevMail {
  subject: string;
  html: string;
  to: Array<{ address: string }>;
}

/** Waits for a mail to `to` in MailDev (the mail catcher) and returns it. */
export async function waitForMail(to: string, subject: string): Promise<MailDevMail> {
  let found: MailDevMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${mailApi()}/api/email`)).json()) as MailDevMail[];
        found = mails.find((m) => m.subject === subject && m.to.some((r) => r.address === to));
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  if (!found) {
    throw new Error("unreachable");
  }
  return found;
}

/** The first link in a mail whose path starts with `pathPrefix`, as a path on our origin. */
export function linkIn(mail: MailDevMail, pathPrefix: string): string {
  const match = mail.html.match(new RegExp(`href="https?://[^/"]+(${pathPrefix}[^"]*)"`));
  if (!match?.[1]) {
    throw new Error(`no ${pathPrefix} link in mail "${mail.subject}"`);
  }
  return match[1].replace(/&amp;/g, "&").replace(/&#x3D;/g, "=");
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole("region", { name: "Ich habe bereits ein Konto" });
  await form.getByLabel("E-Mail").fill(email);
  await form.getByLabel("Passwort").fill(password);
  await form.getByLabel("Passwort").press("Enter");
}

/** Closes the current dialog of the global alert system with its OK button. */
export async function confirmDialog(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog"));
  await expect(dialog.getByRole("heading", { name: title })).toBeVisible();
  await dialog.getByRole("button", { name: "OK" }).click();
}
