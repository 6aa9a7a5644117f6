import { readFile } from "node:fs/promises";
import { MSG_LEARNING_CHECK, MSG_VNR } from "@app/shared";
import { expect, type Page } from "@playwright/test";
import { type TestData, vimeo } from "./data";
import { contentDay, dayFromToday, expectAccessible, failedRequest, test } from "./fixtures";

/** ADR 0119, ADR 0121: the admin writes a learning-success check; a buyer who watched enough takes it. */

/** A past Fortbildung event with two 10-minute videos and its package. */
async function recording(data: TestData) {
  const day = dayFromToday(-10);
  const congress = await data.congress({ fortbildung: true, firstDay: day, lastDay: day });
  await data.content(congress.id, [contentDay("Tag 1", 2)]);
  await data.videoLength(vimeo(100_000), 600);
  await data.videoLength(vimeo(100_001), 600);
  const pkg = await data.package(congress.id, { name: data.title("Aufzeichnung") });
  return { congress, pkg };
}

/** A buyer of the package who watched `seconds` of each video on its page. */
async function buyer(
  data: TestData,
  scene: Awaited<ReturnType<typeof recording>>,
  seconds = 600,
  fields: Parameters<TestData["user"]>[0] = {},
) {
  const user = await data.user(fields);
  await data.packageOrder(user.id, scene.pkg.id);
  for (const id of [100_000, 100_001]) {
    await data.watched(user.id, scene.congress.id, dayFromToday(-1), vimeo(id), seconds, scene.pkg.id);
  }
  return user;
}

const QUESTIONS = [
  {
    question: "Wie viele Minuten ergeben einen Fortbildungspunkt?",
    answers: [
      { text: "45 Minuten", correct: true },
      { text: "30 Minuten", correct: false },
      { text: "60 Minuten", correct: false },
    ],
    explanation: "Die Kammern rechnen 1 Punkt je 45 Minuten.",
  },
  {
    question: "Welche Angaben stehen auf der Bescheinigung?",
    answers: [
      { text: "Die VNR", correct: true },
      { text: "Die EFN", correct: true },
      { text: "Das Passwort", correct: false },
      { text: "Die Kontonummer", correct: false },
    ],
    explanation: "VNR und EFN gehören auf die Bescheinigung.",
  },
];

const section = (page: Page) => page.getByRole("region", { name: "Lernerfolgskontrolle" });

test("an admin writes a learning check with a question of several correct answers", async ({
  page,
  data,
  signIn,
}) => {
  const { pkg } = await recording(data);
  const day = dayFromToday(-10);
  const admin = await data.user({ admin: true });
  await signIn(admin);
  await page.goto("/admin/manage/learning-checks");
  await page.getByRole("button", { name: "Neue Lernerfolgskontrolle" }).click();
  const dialog = page.getByRole("dialog", { name: "Neue Lernerfolgskontrolle" });
  await dialog.getByLabel("Kongresspaket *").selectOption(String(pkg.id));
  await dialog.getByLabel("Gilt für").selectOption(day);
  await expect(dialog.getByLabel("Bestehensgrenze in % *")).toHaveValue("70");
  // the recording's own VNR: 19 digits (a pasted one with spaces is taken as its digits)
  await dialog.getByLabel("VNR").fill("276 0602 0269 9999 001");
  await dialog.getByLabel("Kategorie").fill("I");
  await dialog.getByLabel("Fragetext *").fill("Welche Angaben stehen auf der Bescheinigung?");
  await dialog.getByLabel("Frage 1, Antwort 1", { exact: true }).fill("Die VNR");
  await dialog.getByLabel("Frage 1, Antwort 2", { exact: true }).fill("Die EFN");
  await dialog.getByLabel("Frage 1, Antwort 3", { exact: true }).fill("Das Passwort");
  // no answer marked correct: refused in German beside the answers
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByText("Bitte markieren Sie mindestens eine richtige Antwort.")).toBeVisible();
  await expect(dialog.getByText(MSG_VNR.length(18))).toBeVisible();
  await dialog.getByLabel("VNR").fill("276 0602 0269 9999 0001");
  await dialog.getByLabel("richtig (Frage 1, Antwort 1)").check();
  await dialog.getByLabel("richtig (Frage 1, Antwort 2)").check();
  await dialog.getByRole("button", { name: "Frage hinzufügen" }).click();
  await dialog.getByLabel("Fragetext *").nth(1).fill("Wie viele Minuten ergeben einen Punkt?");
  for (const [i, text] of ["30", "45", "60"].entries()) {
    await dialog.getByLabel(`Frage 2, Antwort ${i + 1}`, { exact: true }).fill(text);
  }
  await dialog.getByLabel("richtig (Frage 2, Antwort 2)").check();
  // the second question first
  await dialog.getByRole("button", { name: "Nach oben (Frage 2)" }).click();
  await expect(dialog.getByLabel("Fragetext *").first()).toHaveValue(
    "Wie viele Minuten ergeben einen Punkt?",
  );
  await expectAccessible(page, "Editor der Lernerfolgskontrolle");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Die Lernerfolgskontrolle wurde gespeichert.")).toBeVisible();
  const row = page
    .getByRole("table", { name: "Lernerfolgskontrollen" })
    .getByRole("row")
    .filter({ hasText: pkg.name });
  await expect(row).not.toContainText("Ganzes Paket");
  await expect(row).toContainText("70 %");
  await expect(row).toContainText("2760602026999990001");
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");

  // opened on a fresh page (the package and event lists not loaded yet), the editor shows the stored package
  // and day, not "Bitte wählen …" and the whole package
  await page.reload();
  await row.getByRole("button", { name: /bearbeiten$/ }).click();
  const editor = page.getByRole("dialog", { name: "Lernerfolgskontrolle bearbeiten" });
  await expect(editor.getByLabel("Kongresspaket *")).toHaveValue(String(pkg.id));
  await expect(editor.getByLabel("Gilt für")).toHaveValue(day);
  await editor.getByRole("button", { name: "Abbrechen" }).click();

  // deleting asks first
  await row.getByRole("button", { name: /löschen$/ }).click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText("wird mit ihren Fragen und allen Versuchen gelöscht");
  await question.getByRole("button", { name: "Ja, ich bin mir sicher" }).click();
  await expect(page.getByText("Die Lernerfolgskontrolle wurde gelöscht.")).toBeVisible();
  await expect(row).toHaveCount(0);
});

test("a buyer who watched enough passes; the answer key is not in the quiz's answer; the pass is in the check's chamber report", async ({
  page,
  browser,
  data,
  signIn,
}) => {
  // two logins, two axe scans and a download: long on two busy cores
  test.slow();
  await data.certificateIssuer();
  const scene = await recording(data);
  const vnr = "2760602026999990002";
  await data.learningCheck(scene.pkg.id, QUESTIONS, { category: "I", points: 2, vnr });
  // check digit worked out by hand in packages/shared/src/efn.test.ts
  const efn = "802760901234566";
  const user = await buyer(data, scene, 600, { firstname: "Ekin", lastname: "Efn", efn });
  await signIn(user);
  await page.goto(`/congress-package/${scene.pkg.id}`);
  await expect(section(page)).toContainText("Angesehen: 20 von 20 Minuten · Voraussetzung erfüllt");
  const started = page.waitForResponse(/\/trpc\/[^?]*learningChecks\.start/);
  await section(page).getByRole("button", { name: "Lernerfolgskontrolle beginnen" }).click();
  const body = await (await started).text();
  expect(body).not.toContain("correct");
  expect(body).not.toContain("Die Kammern rechnen");
  // the focus goes to the quiz; a question of several correct answers says so and takes checkboxes
  await expect(section(page).getByRole("heading", { name: /^2 Fragen/ })).toBeFocused();
  const multi = section(page).getByRole("group", { name: /Welche Angaben/ });
  await expect(multi).toContainText("Mehrere Antworten können richtig sein.");
  await expect(multi.getByRole("checkbox")).toHaveCount(4);
  await expect(
    section(page)
      .getByRole("group", { name: /Wie viele Minuten/ })
      .getByRole("radio"),
  ).toHaveCount(3);
  await expectAccessible(page, "Lernerfolgskontrolle");

  // by keyboard: Tab into the first question's radios, arrows choose
  await multi.getByLabel("Die VNR").check();
  await multi.getByLabel("Die EFN").check();
  await section(page).getByLabel("45 Minuten").check();
  await section(page).getByRole("button", { name: "Antworten abgeben" }).click();
  await expect(section(page).getByRole("status")).toHaveText(
    "Bestanden: 2 von 2 Fragen richtig (100 %), bestanden ab 70 %. Ihre Teilnahmebescheinigung für die Aufzeichnung wird ausgestellt.",
  );
  await expect(section(page).getByRole("heading", { name: "Ihr Ergebnis" })).toBeFocused();
  await expect(section(page)).toContainText("Erklärung: Die Kammern rechnen 1 Punkt je 45 Minuten.");
  await expect(section(page)).toContainText(/Bestanden am \d\d\.\d\d\.\d{4}\./);
  await expect(section(page).getByRole("button", { name: /Lernerfolgskontrolle/ })).toHaveCount(0);
  await expectAccessible(page, "Ergebnis der Lernerfolgskontrolle");

  // the organiser's report of the recording: the pass with EFN, the date of passing and the check's VNR
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(await data.user({ admin: true }), admin);
  await admin.goto("/admin/manage/learning-checks");
  const row = admin
    .getByRole("table", { name: "Lernerfolgskontrollen" })
    .getByRole("row")
    .filter({ hasText: scene.pkg.name });
  const [csv] = await Promise.all([
    admin.waitForEvent("download"),
    row.getByRole("button", { name: /^Meldung an die Kammer der .+ als CSV herunterladen$/ }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^kammermeldung-lernerfolgskontrolle-.+\.csv$/);
  const today = dayFromToday(0).split("-").reverse().join(".");
  expect(await readFile(await csv.path(), "utf8")).toBe(
    `\uFEFFVNR;EFN;Nachname;Vorname;Datum;Punkte\r\n${vnr};${efn};Efn;Ekin;${today};2\r\n`,
  );
  await adminContext.close();
});

test("a fail shows the result without passing; unanswered questions are named first", async ({
  page,
  data,
  signIn,
}) => {
  // on a phone
  await page.setViewportSize({ width: 390, height: 844 });
  const scene = await recording(data);
  await data.learningCheck(scene.pkg.id, QUESTIONS);
  const user = await buyer(data, scene);
  await signIn(user);
  await page.goto(`/congress-package/${scene.pkg.id}`);
  await section(page).getByRole("button", { name: "Lernerfolgskontrolle beginnen" }).click();
  await section(page).getByLabel("30 Minuten").check();
  await section(page).getByRole("button", { name: "Antworten abgeben" }).click();
  await expect(section(page).getByRole("alert")).toContainText("Bitte beantworten Sie alle Fragen.");
  const multi = section(page).getByRole("group", { name: /Welche Angaben/ });
  await expect(multi.getByRole("checkbox").first()).toBeFocused();
  await multi.getByLabel("Die VNR").check();
  await section(page).getByRole("button", { name: "Antworten abgeben" }).click();
  await expect(section(page).getByRole("status")).toContainText(
    "Nicht bestanden: 0 von 2 Fragen richtig (0 %), bestanden ab 70 %. Ein neuer Versuch ist ab",
  );
  await expect(section(page)).toContainText("Nicht richtig beantwortet");
  await expect(section(page)).not.toContainText("Bestanden am");
  await expect(section(page)).toContainText("Letzter Versuch: 0 % (nicht bestanden).");
  await expect(section(page).getByRole("button", { name: /Lernerfolgskontrolle/ })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("submitted in a second tab, the first tab's quiz gives way to the result instead of failing again", async ({
  page,
  data,
  browserErrors,
  signIn,
}) => {
  const scene = await recording(data);
  // one question: "1 Frage", not "1 Fragen"
  await data.learningCheck(scene.pkg.id, QUESTIONS.slice(0, 1));
  const user = await buyer(data, scene);
  await signIn(user);
  await page.goto(`/congress-package/${scene.pkg.id}`);
  await expect(section(page)).toContainText("1 Frage · bestanden ab 70 %");
  await section(page).getByRole("button", { name: "Lernerfolgskontrolle beginnen" }).click();
  await expect(section(page).getByRole("heading", { name: /^1 Frage ·/ })).toBeFocused();
  const other = await page.context().newPage();
  await other.goto(`/congress-package/${scene.pkg.id}`);
  await section(other).getByRole("button", { name: "Lernerfolgskontrolle fortsetzen" }).click();
  await section(other).getByLabel("45 Minuten").check();
  await section(other).getByRole("button", { name: "Antworten abgeben" }).click();
  await expect(section(other).getByRole("status")).toContainText("Bestanden: 1 von 1 Frage richtig (100 %)");

  browserErrors.expect(failedRequest(409, "/trpc/learningChecks.submit"));
  await section(page).getByLabel("30 Minuten").check();
  await section(page).getByRole("button", { name: "Antworten abgeben" }).click();
  const refusal = page.getByRole("alertdialog");
  await expect(refusal).toContainText(MSG_LEARNING_CHECK.attemptSubmitted);
  await refusal.getByRole("button", { name: "OK" }).click();
  await expect(section(page).getByRole("button", { name: "Antworten abgeben" })).toHaveCount(0);
  await expect(section(page)).toContainText(/Bestanden am \d\d\.\d\d\.\d{4}\./);
  await other.close();
});

test("a buyer below the watch share cannot start; a package without Fortbildung shows no check", async ({
  page,
  data,
  signIn,
}) => {
  const scene = await recording(data);
  await data.learningCheck(scene.pkg.id, QUESTIONS);
  const user = await buyer(data, scene, 300);
  await signIn(user);
  await page.goto(`/congress-package/${scene.pkg.id}`);
  await expect(section(page)).toContainText(
    "Angesehen: 10 von 20 Minuten · Lernerfolgskontrolle ab 16 Minuten",
  );
  await expect(section(page).getByRole("button", { name: /Lernerfolgskontrolle/ })).toHaveCount(0);

  // the same check on a package of an event without Fortbildung is not offered
  const plain = await data.congress({ firstDay: dayFromToday(-10), lastDay: dayFromToday(-10) });
  await data.content(plain.id, [contentDay("Tag 1", 1)]);
  const plainPackage = await data.package(plain.id, { name: data.title("Ohne Fortbildung") });
  await data.learningCheck(plainPackage.id, QUESTIONS);
  await data.packageOrder(user.id, plainPackage.id);
  await page.goto(`/congress-package/${plainPackage.id}`);
  await expect(page.getByRole("heading", { level: 1, name: plainPackage.name })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Tag 1" })).toBeVisible();
  await expect(section(page)).toHaveCount(0);
});
