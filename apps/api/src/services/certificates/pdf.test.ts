import { type CertificateFacts, certificateDayLine, certificateRows } from "@app/shared";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pdfGlyphs, pdfQrCodes, pdfText, pdfTextItems } from "../../testing/pdf";
import { renderAttendancePdf, renderCertificatePdf } from "./pdf";

/** ADR 0115: the certificate carries every field, in every script, and a QR code that scans. */

const NAMES = ["Łukasz Żółć", "Şükrü Ğ İı", "Nguyễn Thị Ánh", "Γιώργος Παπαδόπουλος"];
const VERIFY = "https://kongress.example/bescheinigung/AbCdEfGhIjKlMnOpQrStUvWx";

const facts = (name: string, efn: string | null): CertificateFacts => ({
  kind: "event",
  issuedOn: "2026-11-28",
  participant: { name, efn },
  issuer: {
    name: "Institut für Psychotherapie Łódź & Köln",
    address: "Musterstraße 1\n50667 Köln",
    signatory: "Dr. Zofia Wójcik, Leitung",
    logo: null,
    signature: null,
  },
  congress: { title: "Kongress für Körper & Seele – Ἀρχή", firstDay: "2026-11-23", lastDay: "2026-11-25" },
  vnr: "2760602026112300017",
  category: "B",
  days: [
    { day: "2026-11-23", minutes: 150, contentMinutes: 180, points: 4 },
    { day: "2026-11-25", minutes: 181, contentMinutes: 200, points: 4 },
  ],
  points: 8,
  recording: null,
});

const picture = (color: string) =>
  sharp({ create: { width: 120, height: 40, channels: 3, background: color } })
    .png()
    .toBuffer();

describe("the certificate PDF", () => {
  // four documents with embedded fonts, pictures and a QR code to decode: seconds on a busy machine
  it("prints names in Polish, Turkish, Vietnamese and Greek and every field, read back from its text", async () => {
    for (const name of NAMES) {
      const data = facts(name, "123456789012344");
      const pdf = await renderCertificatePdf(data, {
        number: "2026-000123",
        verifyUrl: VERIFY,
        pictures: { logo: await picture("#336699"), signature: await picture("#000000") },
      });
      const text = (await pdfText(pdf)).replace(/\s+/g, " ");
      expect(text).toContain(name);
      expect(text).toContain("Teilnahmebescheinigung");
      expect(text).toContain("Institut für Psychotherapie Łódź & Köln");
      expect(text).toContain("Musterstraße 1");
      expect(text).toContain("50667 Köln");
      expect(text).toContain("Dr. Zofia Wójcik, Leitung");
      for (const row of certificateRows(data, "2026-000123")) {
        expect(text).toContain(row.label);
        expect(text).toContain(row.value);
      }
      for (const day of data.days) {
        expect(text).toContain(certificateDayLine(day));
      }
      expect(text).toContain("123456789012344");
      expect(text).toContain("2760602026112300017");
      expect(text).toContain("23.11.2026 – 25.11.2026");
      expect(text).toContain("Montag, 23.11.2026: 150 von 180 Minuten, 4 Punkte");
      expect(text).toContain("8 Punkte");
      expect(text).toContain("28.11.2026");
      expect(text).toContain("2026-000123");
      expect(text).toContain(VERIFY);
      expect(await pdfQrCodes(pdf)).toEqual([VERIFY]);
    }
  }, 30_000);

  it("keeps every label clear of its value, also the long ones of a recording's certificate", async () => {
    const data: CertificateFacts = {
      ...facts("Łukasz Żółć", null),
      kind: "recording",
      recording: { packageName: "Aufzeichnung Körper & Seele", day: "2026-11-23", passedOn: "2026-11-28" },
    };
    const items = await pdfTextItems(
      await renderCertificatePdf(data, {
        number: "2026-000124",
        verifyUrl: VERIFY,
        pictures: { logo: null, signature: null },
      }),
    );
    expect(items.some((item) => item.text.includes("Lernerfolgskontrolle"))).toBe(true);
    for (const a of items) {
      for (const b of items) {
        if (a !== b && Math.abs(a.y - b.y) < 1 && a.x < b.x) {
          expect(a.x + a.width, `"${a.text}" runs into "${b.text}"`).toBeLessThanOrEqual(b.x);
        }
      }
    }
  });

  it("prints a dash for a participant without EFN", async () => {
    const pdf = await renderCertificatePdf(facts("Anna Muster", null), {
      number: "2026-000124",
      verifyUrl: VERIFY,
      pictures: { logo: null, signature: null },
    });
    expect((await pdfText(pdf)).replace(/\s+/g, " ")).toContain("EFN —");
  });

  it("makes the simple attendance confirmation with the same fonts", async () => {
    const pdf = await renderAttendancePdf(
      {
        name: "Nguyễn Thị Ánh",
        title: "Kongress für Körper & Seele",
        firstDay: "2026-11-23",
        lastDay: "2026-11-24",
        days: ["2026-11-23"],
        issuedOn: "2026-11-28",
        issuer: null,
      },
      { logo: null, signature: null },
    );
    const text = (await pdfText(pdf)).replace(/\s+/g, " ");
    expect(text).toContain("Teilnahmebestätigung");
    expect(text).toContain("Nguyễn Thị Ánh");
    expect(text).toContain("Montag, 23.11.2026");
    expect(text).toContain("Ausgestellt am 28.11.2026");
    expect(await pdfQrCodes(pdf)).toEqual([]);
  });
});

/** 99 characters, the longest word of the name rule's 100 that fits a first name with hyphens */
const LONG_NAME =
  "Maximiliane-Friederike-Anneliese-Hildegard-Wilhelmine-Konstanze-Mechthild-Gundhild-Theodora-Ottilie";

/** Every script the name rule takes (ADR 0128), and the longest hyphenated name. */
const SCRIPTS: [string, string][] = [
  ["Latin with Vietnamese", "Nguyễn Thị Ánh"],
  ["Greek", "Γιώργος Παπαδόπουλος"],
  ["Cyrillic", "Дмитрий Шостакович"],
  ["Chinese", "小龍 李"],
  ["Japanese", "佐々木 ひなた"],
  ["Korean", "김민준 이"],
  ["a 99-character hyphenated first name", `${LONG_NAME} Muster`],
];

const compact = (text: string) => text.replace(/\s+/g, "");

/** The name's text and real glyphs (no .notdef) are in the PDF, and every line lies inside the page. */
async function expectPrinted(pdf: Uint8Array, name: string) {
  expect(compact(await pdfText(pdf))).toContain(compact(name));
  const { width, height, glyphs } = await pdfGlyphs(pdf);
  const missing = glyphs.filter((g) => g.code === 0).map((g) => g.unicode);
  expect(missing, "characters printed as .notdef").toEqual([]);
  for (const item of await pdfTextItems(pdf)) {
    expect(item.x, `"${item.text}" starts left of the page`).toBeGreaterThanOrEqual(0);
    expect(item.x + item.width, `"${item.text}" runs past the page's right edge`).toBeLessThanOrEqual(width);
    expect(item.y, `"${item.text}" is below the page`).toBeGreaterThanOrEqual(0);
    expect(item.y, `"${item.text}" is above the page`).toBeLessThanOrEqual(height);
  }
}

describe("names in every script the registration takes", () => {
  it("the long name has 99 characters", () => {
    expect(LONG_NAME).toHaveLength(99);
  });

  it.each(SCRIPTS)(
    "prints a name in %s on the certificate and the confirmation",
    async (_, name) => {
      const data = facts(name, null);
      const certificate = await renderCertificatePdf(
        { ...data, issuer: { ...data.issuer, signatory: name } },
        { number: "2026-000125", verifyUrl: VERIFY, pictures: { logo: null, signature: null } },
      );
      await expectPrinted(certificate, name);
      const confirmation = await renderAttendancePdf(
        {
          name,
          title: "Kongress für Körper & Seele",
          firstDay: "2026-11-23",
          lastDay: null,
          days: ["2026-11-23"],
          issuedOn: "2026-11-28",
          issuer: null,
        },
        { logo: null, signature: null },
      );
      await expectPrinted(confirmation, name);
    },
    30_000,
  );

  it("wraps a long hyphenated name at its hyphens, inside the value's column", async () => {
    const pdf = await renderCertificatePdf(facts(`${LONG_NAME} Muster`, null), {
      number: "2026-000126",
      verifyUrl: VERIFY,
      pictures: { logo: null, signature: null },
    });
    const lines = (await pdfTextItems(pdf)).filter((item) =>
      LONG_NAME.includes(item.text.replace(/ .*/, "")),
    );
    expect(lines.length).toBeGreaterThan(1);
    expect(compact(lines.map((l) => l.text).join(""))).toContain(LONG_NAME);
    for (const line of lines.slice(0, -1)) {
      expect(line.text).toMatch(/-$/);
    }
    const column = Math.min(...lines.map((l) => l.x));
    expect(lines.every((l) => l.x === column)).toBe(true);
  });

  it("breaks a long word without hyphens anywhere, and prints an emoji in a title as an empty box without failing", async () => {
    const word = "Fortbildungsveranstaltungsteilnahmebestätigungsausstellungsverfahrensbeschreibung".repeat(
      2,
    );
    const data = facts("Anna Muster", null);
    const pdf = await renderCertificatePdf(
      { ...data, congress: { ...data.congress, title: `${word} 🎓` } },
      { number: "2026-000127", verifyUrl: VERIFY, pictures: { logo: null, signature: null } },
    );
    expect(compact(await pdfText(pdf))).toContain(word);
    const { width } = await pdfGlyphs(pdf);
    for (const item of await pdfTextItems(pdf)) {
      expect(item.x + item.width, `"${item.text}" runs past the page's right edge`).toBeLessThanOrEqual(
        width,
      );
    }
  });
});

describe("control characters", () => {
  it("never print: a bell and direction overrides in a name stored before the name rule leave no box", async () => {
    const pdf = await renderCertificatePdf(facts("Er\u202Eika\u0007 \u2066Muster\u2069", null), {
      number: "2026-000128",
      verifyUrl: VERIFY,
      pictures: { logo: null, signature: null },
    });
    expect((await pdfText(pdf)).replace(/\s+/g, " ")).toContain("Name Erika Muster");
    const { glyphs } = await pdfGlyphs(pdf);
    expect(glyphs.filter((g) => g.code === 0 || /[\p{Cc}\p{Cf}]/u.test(g.unicode))).toEqual([]);
  });
});
