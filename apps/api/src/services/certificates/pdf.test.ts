import { type CertificateFacts, certificateDayLine, certificateRows } from "@app/shared";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pdfQrCodes, pdfText, pdfTextItems } from "../../testing/pdf";
import { renderAttendancePdf, renderCertificatePdf } from "./pdf";

/** Issue 34 item 2: the certificate carries every field, in every script, and a QR code that scans. */

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
