import { MSG, MSG_ADMIN, MSG_TEMPLATES } from "@app/shared";
import { expect, type Page } from "@playwright/test";
import { openAdminSection } from "./admin-nav";
import { DEMO, failedRequest, openOverview, type SignIn, test } from "./fixtures";

// ADR 0088, ADR 0089: what an organiser trips over in the administration.

async function openAdmin({ page, signIn }: { page: Page; signIn: SignIn }, section: string) {
  await signIn(DEMO.admin);
  await openOverview(page);
  await page.getByRole("link", { name: "Administration" }).click();
  await openAdminSection(page, section);
}

const alertDialog = (page: Page) => page.getByRole("alertdialog");

/** The mails sent about one event, which therefore may have an event's own template. */
const EVENT_MAILS = [
  "registration-confirmation",
  "participation-confirmation",
  "event-day",
  "order-package",
  "order-ticket",
  "order-ticket-package",
  "order-admin",
  "certificate",
];

test("an admin makes an event's own template from a general one, edits it and copies it", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the second template for the same event and mail
  browserErrors.expect(failedRequest(409, "/trpc/admin.mailTemplates.create"));
  const source = await data.congress({ visible: false });
  const target = await data.congress({ visible: false });
  const empty = await data.congress({ visible: false });
  await openAdmin({ page, signIn }, "E-Mail-Templates");

  await page.getByRole("button", { name: "Neue Vorlage" }).click();
  const create = page.getByRole("dialog", { name: "Neue Vorlage für eine Veranstaltung" });
  // only the mails an event sends have an event's own template
  const starts = create.getByLabel("Ausgangspunkt (allgemeine Vorlage)").locator("option");
  await expect(starts.filter({ hasText: /^order-admin: / })).toHaveCount(1);
  const offered = await starts.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(offered.filter(Boolean).sort()).toEqual([...EVENT_MAILS].sort());
  for (const mail of [
    "password-reset",
    "sign-in-link",
    "migration-set-password",
    "registration-existing-account",
  ]) {
    expect(offered).not.toContain(mail);
  }
  await create.getByRole("button", { name: "Anlegen" }).click();
  await expect(create.getByLabel("Veranstaltung")).toHaveAccessibleDescription(
    "Bitte wählen Sie die Veranstaltung, für die die Vorlage gelten soll.",
  );
  await create.getByLabel("Veranstaltung").selectOption({ label: source.title });
  await create.getByLabel("Ausgangspunkt (allgemeine Vorlage)").selectOption({ value: "order-admin" });
  await create.getByRole("button", { name: "Anlegen" }).click();
  await expect(page.getByText(`Die Vorlage für „${source.title}“ wurde angelegt.`)).toBeVisible();
  // the table now shows that event's templates, the new one among them, and it opens for editing
  const table = page.getByRole("table", { name: "E-Mail-Templates" });
  await expect(page.getByLabel("Veranstaltung", { exact: true })).toHaveValue(String(source.id));
  await expect(table.getByRole("cell", { name: source.title })).toBeVisible();
  await page.getByRole("button", { name: "order-admin bearbeiten" }).click();
  const editor = page.getByRole("dialog", { name: "Vorlage „order-admin“ bearbeiten" });
  await expect(editor.getByRole("textbox", { name: "Inhalt" })).toBeVisible({ timeout: 20_000 });
  const subject = `Eigener Betreff ${Date.now()}`;
  await editor.getByLabel("Betreff").fill(subject);
  await editor.getByRole("button", { name: "Speichern" }).click();
  await expect(table.getByText(subject)).toBeVisible();

  // a second one for the same event and mail is refused with the reason
  await page.getByRole("button", { name: "Neue Vorlage" }).click();
  await create.getByLabel("Veranstaltung").selectOption({ label: source.title });
  await create.getByLabel("Ausgangspunkt (allgemeine Vorlage)").selectOption({ value: "order-admin" });
  await create.getByRole("button", { name: "Anlegen" }).click();
  await expect(
    alertDialog(page).getByText("Für diese E-Mail und diese Veranstaltung gibt es bereits eine Vorlage."),
  ).toBeVisible();
  await alertDialog(page).getByRole("button", { name: "OK" }).click();
  await create.getByRole("button", { name: "Abbrechen" }).click();

  const confirmations: string[] = [];
  page.on("dialog", (question) => {
    confirmations.push(question.message());
    void question.accept();
  });
  const copy = page.getByRole("form", { name: "Vorlagen kopieren" });
  const from = copy.getByLabel("Von Veranstaltung");
  const to = copy.getByLabel("Nach Veranstaltung");
  // nothing chosen: each field says what it needs, the two-events message not twice
  await copy.getByRole("button", { name: "Vorlagen kopieren" }).click();
  await expect(from).toHaveAccessibleDescription(MSG_TEMPLATES.copyFromRequired);
  await expect(to).toHaveAccessibleDescription(MSG_TEMPLATES.copyToRequired);
  await expect(copy.getByText(MSG_TEMPLATES.copyDifferent)).toHaveCount(0);
  // the same event twice: the message once, under the target
  await from.selectOption({ label: target.title });
  await to.selectOption({ label: target.title });
  await copy.getByRole("button", { name: "Vorlagen kopieren" }).click();
  await expect(to).toHaveAccessibleDescription(MSG_TEMPLATES.copyDifferent);
  await expect(copy.getByText(MSG_TEMPLATES.copyDifferent)).toHaveCount(1);
  await expect(from).toHaveAccessibleDescription("");

  // nothing to copy is said under the source before anything is asked, not reported as a success
  await from.selectOption({ label: empty.title });
  await copy.getByRole("button", { name: "Vorlagen kopieren" }).click();
  await expect(from).toHaveAccessibleDescription(new RegExp(`^„${empty.title}“ hat keine eigenen Vorlagen`));
  expect(confirmations).toEqual([]);
  await expect(page.getByText(MSG.mailTemplatesCopied)).toHaveCount(0);

  await from.selectOption({ label: source.title });
  await copy.getByRole("button", { name: "Vorlagen kopieren" }).click();
  await expect(page.getByText(`${MSG.mailTemplatesCopied} Es wurde 1 Vorlage übernommen.`)).toBeVisible();
  expect(confirmations).toHaveLength(1);
  await expect(page.getByLabel("Veranstaltung", { exact: true })).toHaveValue(String(target.id));
  await expect(table.getByText(subject)).toBeVisible();
});

test("field messages say what is wrong", async ({ page, signIn }) => {
  await openAdmin({ page, signIn }, "Veranstaltungen");
  await page.getByRole("button", { name: "Neue Veranstaltung" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Titel *").fill("x".repeat(301));
  await dialog.getByLabel("Checkout-ID Ticket", { exact: true }).fill("abc");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByLabel("Titel *")).toHaveAccessibleDescription(
    "Der Titel darf höchstens 300 Zeichen lang sein.",
  );
  await expect(dialog.getByLabel("Checkout-ID Ticket", { exact: true })).toHaveAccessibleDescription(
    /Bitte geben Sie eine Zahl ein\./,
  );
  await expect(dialog.getByLabel("Beschreibung *")).toHaveAccessibleDescription(
    MSG_ADMIN.descriptionRequired,
  );
  await dialog.getByRole("button", { name: "Abbrechen" }).click();

  await openAdminSection(page, "Videoinhalte");
  await page.getByRole("button", { name: "Inhalt hinzufügen" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("dialog").getByLabel("Veranstaltung")).toHaveAccessibleDescription(
    MSG_ADMIN.congressRequired,
  );
});

test("a ticket-and-package id of an event without a package is warned about at its field, and saves", async ({
  page,
  data,
  signIn,
}) => {
  const without = await data.congress({ visible: false, digistoreIdTicketAndPackage: data.productId() });
  const withPackage = await data.congress({ visible: false, digistoreIdTicketAndPackage: data.productId() });
  await data.package(withPackage.id);
  await openAdmin({ page, signIn }, "Veranstaltungen");
  const dialog = page.getByRole("dialog");
  const field = dialog.getByLabel("Checkout-ID Ticket + Kongresspaket");
  const warning = dialog.getByText(MSG_ADMIN.ticketPackageWithoutPackage);

  await page.getByRole("button", { name: `${without.title} bearbeiten` }).click();
  await expect(warning).toBeVisible();
  await expect(field).toHaveAccessibleDescription(
    new RegExp(MSG_ADMIN.ticketPackageWithoutPackage.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  );
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Die Veranstaltung wurde gespeichert.")).toBeVisible();

  await page.getByRole("button", { name: `${withPackage.title} bearbeiten` }).click();
  await expect(field).toHaveValue(String(withPackage.digistoreIdTicketAndPackage));
  await expect(warning).toHaveCount(0);
  await dialog.getByRole("button", { name: "Abbrechen" }).click();

  // a new event has no package yet: the warning comes with the id and goes with 0
  await page.getByRole("button", { name: "Neue Veranstaltung" }).click();
  await expect(warning).toHaveCount(0);
  await field.fill("4711");
  await expect(warning).toBeVisible();
  await field.fill("0");
  await expect(warning).toHaveCount(0);
});

test("a package made in its section ends the warning about the event's ticket-and-package id at once", async ({
  page,
  data,
  signIn,
}) => {
  const without = await data.congress({ visible: false, digistoreIdTicketAndPackage: data.productId() });
  await openAdmin({ page, signIn }, "Veranstaltungen");
  const dialog = page.getByRole("dialog");
  const warning = dialog.getByText(MSG_ADMIN.ticketPackageWithoutPackage);
  await page.getByRole("button", { name: `${without.title} bearbeiten` }).click();
  await expect(warning).toBeVisible();
  await dialog.getByRole("button", { name: "Abbrechen" }).click();

  await openAdminSection(page, "Kongresspakete");
  await page.getByRole("button", { name: "Neues Kongresspaket" }).click();
  await dialog.getByLabel("Name *").fill(data.title("E2E-Paket"));
  await dialog.getByLabel("Veranstaltung *").selectOption({ label: without.title });
  await dialog.getByLabel("Checkout-ID *").fill(String(data.productId()));
  await dialog.getByLabel("Beschreibung *").fill("Paket aus dem Test.");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toHaveCount(0);
  await openAdminSection(page, "Veranstaltungen");
  await page.getByRole("button", { name: `${without.title} bearbeiten` }).click();
  await expect(dialog.getByLabel("Checkout-ID Ticket + Kongresspaket")).toHaveValue(
    String(without.digistoreIdTicketAndPackage),
  );
  await expect(warning).toHaveCount(0);
});

/** Chooses a file made in the page (a 6 MB buffer through the protocol takes long on a busy machine). */
async function chooseFile(page: Page, file: { name: string; type: string; size: number }) {
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .evaluate((input: HTMLInputElement, f) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(f.size)], f.name, { type: f.type }));
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, file);
}

test("a picture is checked in the browser before it is uploaded", async ({ page, signIn }) => {
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("admin.images.upload")) {
      uploads.push(r.url());
    }
  });
  await openAdmin({ page, signIn }, "Veranstaltungen");
  await page.getByRole("button", { name: "Neue Veranstaltung" }).click();
  const dialog = page.getByRole("dialog");
  await chooseFile(page, { name: "riesig.png", type: "image/png", size: 6 * 1024 * 1024 });
  await expect(dialog.getByRole("alert").filter({ hasText: "höchstens 5 MB" })).toContainText("6,0 MB");
  await chooseFile(page, { name: "text.pdf", type: "application/pdf", size: 8 });
  await expect(dialog.getByRole("alert").filter({ hasText: "PNG, JPEG oder WebP" })).toBeVisible();
  expect(uploads).toEqual([]);
});

test("a package's crosssellLink must be a web address or a path of this site", async ({
  page,
  data,
  signIn,
}) => {
  const congress = await data.congress({ visible: false });
  const pkg = await data.package(congress.id);
  await openAdmin({ page, signIn }, "Kongresspakete");
  await page.getByRole("button", { name: `${pkg.name} bearbeiten` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Parameter hinzufügen" }).click();
  await dialog.getByLabel("Parameter 1: Name").fill("crosssellLink");
  for (const link of ["javascript:alert(1)", "//evil.example"]) {
    await dialog.getByLabel("Parameter 1: Wert").fill(link);
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(MSG_ADMIN.crosssellLinkInvalid);
    await expect(dialog).toBeVisible();
  }
});

test("the demo package with its cross-sell path is edited and saved", async ({ page, signIn }) => {
  // the seed's package 2 recommends package 5 by a path of this site (shown to its buyers)
  await openAdmin({ page, signIn }, "Kongresspakete");
  const edit = page.getByRole("button", { name: "Kongresspaket Beziehung & Bindung bearbeiten" });
  // the table is newest first: the seed's packages are on its last page
  const table = page.getByRole("table", { name: "Kongresspakete" });
  const pager = page.getByRole("navigation", { name: "Seiten" });
  await expect(table).toHaveAttribute("aria-busy", "false");
  for (let shown = 1; !(await edit.isVisible()); shown += 1) {
    await pager.getByRole("button", { name: "Weiter" }).click();
    await expect(pager).toContainText(`Seite ${shown + 1} von`);
    await expect(table).toHaveAttribute("aria-busy", "false");
  }
  await edit.click();
  const dialog = page.getByRole("dialog", { name: "Kongresspaket bearbeiten" });
  const values = dialog.getByLabel(/^Parameter \d+: Wert$/);
  await expect(values).toHaveCount(2);
  expect(await values.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toContain(
    "/congress-package-purchase/5",
  );
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Das Kongresspaket wurde gespeichert.")).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test("the contents table counts one video as one video", async ({ page, data, signIn }) => {
  const congress = await data.congress({ visible: false, title: data.title("E2E-Einzelvideo") });
  await data.content(congress.id, [
    {
      name: "Einziger Tag",
      exclusive_date: "",
      videos: [{ url: "https://player.vimeo.com/video/1", comment: "" }],
    },
  ]);
  await openAdmin({ page, signIn }, "Videoinhalte");
  await page.getByLabel("Suchen").fill(congress.title);
  const row = page.getByRole("row").filter({ hasText: congress.title });
  await expect(row).toContainText("Einziger Tag: 1 Video");
  await expect(row).not.toContainText("1 Videos");
});

test("Escape in the template editor asks before unsaved edits are lost", async ({ page, data, signIn }) => {
  const congress = await data.congress({ visible: false });
  await data.template(congress.id, "event-day", "Ursprünglicher Betreff");
  await openAdmin({ page, signIn }, "E-Mail-Templates");
  await page.getByLabel("Veranstaltung", { exact: true }).selectOption({ label: congress.title });
  await page.getByRole("button", { name: "event-day bearbeiten" }).click();
  const editor = page.getByRole("dialog", { name: "Vorlage „event-day“ bearbeiten" });
  // unchanged: Escape closes at once
  await expect(editor.getByLabel("Betreff")).toHaveValue("Ursprünglicher Betreff");
  await page.keyboard.press("Escape");
  await expect(editor).toHaveCount(0);

  await page.getByRole("button", { name: "event-day bearbeiten" }).click();
  await editor.getByLabel("Betreff").fill("Geänderter Betreff");
  await page.keyboard.press("Escape");
  const question = alertDialog(page);
  await expect(question.getByRole("heading", { name: "Änderungen verwerfen?" })).toBeVisible();
  await question.getByRole("button", { name: "Weiter bearbeiten" }).click();
  await expect(editor.getByLabel("Betreff")).toHaveValue("Geänderter Betreff");
  await page.keyboard.press("Escape");
  await alertDialog(page).getByRole("button", { name: "Verwerfen" }).click();
  await expect(editor).toHaveCount(0);
  await expect(
    page.getByRole("table", { name: "E-Mail-Templates" }).getByText("Ursprünglicher Betreff"),
  ).toBeVisible();
});

test("a second ticket order for a person is shown before it is made, an unconfirmed account has a hint", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  // the refusal at the end, on purpose
  browserErrors.expect(failedRequest(409, "/trpc/orders.create"));
  const congress = await data.ticketedCongress({ visible: false });
  const buyer = await data.user({ firstname: "Doppelt", lastname: "Bestellt" });
  const orderNumber = await data.ticketOrder(buyer.id, congress.id);
  const unconfirmed = await data.user({ firstname: "Noch", lastname: "Unbestätigt", unconfirmed: true });
  await openAdmin({ page, signIn }, "Ticketbestellungen");
  await page.getByRole("button", { name: "Bestellung anlegen" }).click();
  const dialog = page.getByRole("dialog");
  const results = dialog.getByRole("list", { name: "Suchergebnisse" });
  await dialog.getByLabel("Personen suchen (E-Mail)").fill(unconfirmed.email);
  // the address and the badge are two words to a screen reader, not "…@example.deE-Mail nicht bestätigt"
  await expect(
    results.getByRole("button", {
      name: `Noch Unbestätigt <${unconfirmed.email}>, E-Mail nicht bestätigt`,
      exact: true,
    }),
  ).toBeVisible();
  await dialog.getByLabel("Personen suchen (E-Mail)").fill(buyer.email);
  await results.getByRole("button", { name: new RegExp(buyer.email) }).click();
  await dialog.getByLabel("Veranstaltung").selectOption({ label: congress.title });
  const warning = dialog.getByRole("status").filter({ hasText: "bereits eine bezahlte Bestellung" });
  await expect(warning).toContainText(buyer.email);
  await expect(warning).toContainText(orderNumber);
  // the server refuses it too
  await dialog.getByRole("button", { name: "Bestellung anlegen" }).click();
  await expect(alertDialog(page).getByText(/bereits eine bezahlte Bestellung/)).toBeVisible();
});

test("the admin's own active switch is off limits and says why", async ({ page, signIn }) => {
  await openAdmin({ page, signIn }, "Benutzer:innen");
  await page.getByLabel("Nach E-Mail filtern").fill(DEMO.admin.email);
  const row = page.getByRole("row").filter({ hasText: DEMO.admin.email });
  const own = row.getByRole("switch");
  await expect(own).toBeDisabled();
  await expect(own).toHaveAccessibleDescription(MSG_ADMIN.cannotDeactivateSelf);
});

test("the mail-template filter fits a phone's width", async ({ page, data, signIn }) => {
  await data.congress({
    visible: false,
    title: data.title(
      "E2E-Veranstaltung mit einem sehr langen Titel, der auf einem Telefon nicht in eine Zeile passt",
    ),
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await openAdmin({ page, signIn }, "E-Mail-Templates");
  const filter = page.getByLabel("Veranstaltung", { exact: true });
  await expect(filter).toBeVisible();
  const box = await filter.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(390);
});
