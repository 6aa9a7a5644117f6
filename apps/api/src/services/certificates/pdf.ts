import {
  type CertificateFacts,
  type CertificateIssuerFacts,
  certificateDayLine,
  certificateRows,
  formatCongressDates,
  formatGermanDate,
  germanDayName,
  type IsoDate,
  MSG_ATTENDANCE,
  MSG_CERTIFICATE,
} from "@app/shared";
import fontkit from "@pdf-lib/fontkit";
import { type Color, PDFDocument, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import QRCode from "qrcode";
import { DocumentText, type Weight } from "./fonts";
import { wrap } from "./wrap";

/**
 * The documents of attendance as PDF (ADR 0115): the Teilnahmebescheinigung of a Fortbildung and the
 * simple attendance confirmation of other events, one layout with DejaVu Sans and, for what it lacks,
 * Noto Sans CJK embedded (subsets, `fonts.ts`), so every name prints with its own letters (Łukasz, Şükrü,
 * Nguyễn, Γιώργος, Дмитрий, 小龍 李, 김민준), and long words wrap inside their column (`wrap.ts`).
 */

/** The issuer's pictures as PNG or JPEG bytes (pdf-lib embeds no WebP; see `issuerPictures`). */
export interface IssuerPictures {
  logo: Uint8Array | null;
  signature: Uint8Array | null;
}

const INK = rgb(0.1, 0.1, 0.15);
const MUTED = rgb(0.35, 0.35, 0.4);
const A4: [number, number] = [595.28, 841.89];
const LEFT = 64;

/**
 * A text as it can be printed: NFC, and no control or format characters (a bell, a direction override,
 * a soft hyphen would print as a box or nothing); tabs become spaces, line breaks stay.
 */
const printable = (value: string) =>
  value
    .normalize("NFC")
    .replace(/\t/g, " ")
    .replace(/[^\P{Cc}\n]|\p{Cf}/gu, "");

/** the least space between a label and its value in a row */
const LABEL_GAP = 10;

/** A page written from the top down. */
class Sheet {
  y: number;
  readonly width: number;
  constructor(
    readonly page: PDFPage,
    readonly words: DocumentText,
  ) {
    this.y = page.getHeight() - 64;
    this.width = page.getWidth() - 2 * LEFT;
  }

  /** the lines of `value` within `width` */
  lines(value: string, weight: Weight, size: number, width: number): string[] {
    return wrap(printable(value), width, (text) => this.words.width(text, weight, size));
  }

  draw(text: string, x: number, y: number, options: { size: number; weight: Weight; color: Color }) {
    this.words.draw(this.page, text, { x, y, ...options });
  }

  text(value: string, options: { bold?: boolean; size?: number; gap?: number; muted?: boolean } = {}) {
    const weight = options.bold ? "bold" : "regular";
    const size = options.size ?? 11;
    for (const line of this.lines(value, weight, size, this.width)) {
      this.draw(line, LEFT, this.y - size, { size, weight, color: options.muted ? MUTED : INK });
      this.y -= size * 1.35;
    }
    this.y -= options.gap ?? 6;
  }

  /**
   * "Label: value" with the label in the muted colour, the value beside it; each wraps within its column
   * ("Lernerfolgskontrolle bestanden am" is wider than the label column and takes two lines)
   */
  row(label: string, value: string) {
    const size = 11;
    const labelWidth = 190;
    const labels = this.lines(label, "regular", size, labelWidth - LABEL_GAP);
    const values = this.lines(value, "bold", size, this.width - labelWidth);
    for (let i = 0; i < Math.max(labels.length, values.length, 1); i++) {
      const y = this.y - size;
      this.draw(labels[i] ?? "", LEFT, y, { size, weight: "regular", color: MUTED });
      this.draw(values[i] ?? "", LEFT + labelWidth, y, { size, weight: "bold", color: INK });
      this.y -= size * 1.4;
    }
    this.y -= 2;
  }

  image(image: PDFImage, x: number, top: number, maxWidth: number, maxHeight: number) {
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const height = image.height * scale;
    this.page.drawImage(image, { x, y: top - height, width: image.width * scale, height });
    return height;
  }
}

async function startDocument(title: string) {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(title);
  pdf.setLanguage("de-DE");
  pdf.setCreator("Kongress-Plattform");
  pdf.setProducer("Kongress-Plattform");
  return { pdf, sheet: new Sheet(pdf.addPage(A4), await DocumentText.create()) };
}

/** Draws the document's text with its fonts embedded, and the PDF's bytes. */
async function finish(pdf: PDFDocument, sheet: Sheet): Promise<Uint8Array> {
  await sheet.words.finish(pdf);
  return pdf.save();
}

async function embedPicture(pdf: PDFDocument, bytes: Uint8Array | null): Promise<PDFImage | null> {
  if (!bytes) {
    return null;
  }
  // PNG starts with 0x89 'P'; everything else we pass is JPEG
  return bytes[0] === 0x89 ? pdf.embedPng(bytes) : pdf.embedJpg(bytes);
}

/** The organiser at the top: name and address on the left, the logo on the right. */
async function header(
  pdf: PDFDocument,
  sheet: Sheet,
  issuer: Omit<CertificateIssuerFacts, "logo" | "signature"> | null,
  pictures: IssuerPictures,
) {
  const top = sheet.y;
  const logo = await embedPicture(pdf, pictures.logo);
  const logoHeight = logo ? sheet.image(logo, sheet.page.getWidth() - LEFT - 150, top, 150, 64) : 0;
  if (issuer?.name) {
    sheet.text(issuer.name, { bold: true, size: 12, gap: 2 });
    if (issuer.address) {
      sheet.text(issuer.address, { size: 9, muted: true, gap: 0 });
    }
  }
  sheet.y = Math.min(sheet.y, top - logoHeight) - 36;
}

/**
 * The Teilnahmebescheinigung of a Fortbildung event or recording: the organiser, the certificate's rows
 * (`certificateRows`, the same the verification page shows), the days, the signature and the QR code of
 * the verification address.
 */
export async function renderCertificatePdf(
  facts: CertificateFacts,
  options: { number: string; verifyUrl: string; pictures: IssuerPictures },
): Promise<Uint8Array> {
  const title = facts.recording ? MSG_CERTIFICATE.recordingTitle : MSG_CERTIFICATE.title;
  const { pdf, sheet } = await startDocument(`${title}: ${facts.congress.title}`);
  await header(pdf, sheet, facts.issuer, options.pictures);
  sheet.text(title, { bold: true, size: 24, gap: 14 });
  sheet.text(
    facts.recording
      ? "Hiermit bestätigen wir, dass die folgende Person die Aufzeichnung der Veranstaltung angesehen und die Lernerfolgskontrolle bestanden hat."
      : "Hiermit bestätigen wir, dass die folgende Person an der Online-Veranstaltung teilgenommen und an den unten genannten Tagen die Anforderungen der Fortbildung erfüllt hat.",
    { gap: 12 },
  );
  for (const row of certificateRows(facts, options.number)) {
    sheet.row(row.label, row.value);
  }
  if (facts.days.length > 0) {
    sheet.y -= 8;
    sheet.text("Anerkannte Tage (Teilnahmezeit aus dem Videoplayer bzw. Teilnehmerbericht):", {
      size: 10,
      muted: true,
      gap: 2,
    });
    for (const day of facts.days) {
      sheet.text(`•  ${certificateDayLine(day)}`, { size: 10, gap: 0 });
    }
  }
  sheet.y -= 24;
  const signature = await embedPicture(pdf, options.pictures.signature);
  if (signature) {
    sheet.y -= sheet.image(signature, LEFT, sheet.y, 180, 60) + 4;
  }
  sheet.page.drawLine({
    start: { x: LEFT, y: sheet.y },
    end: { x: LEFT + 220, y: sheet.y },
    thickness: 0.6,
    color: MUTED,
  });
  sheet.y -= 4;
  sheet.text(facts.issuer.signatory || facts.issuer.name, { size: 10, gap: 0 });
  await verificationFooter(pdf, sheet, options.verifyUrl);
  return finish(pdf, sheet);
}

/** The QR code of the verification address at the bottom, with the address written out beside it. */
async function verificationFooter(pdf: PDFDocument, sheet: Sheet, url: string) {
  const png = await QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 6 });
  const qr = await pdf.embedPng(png);
  const size = 96;
  sheet.page.drawImage(qr, { x: LEFT, y: 48, width: size, height: size });
  const x = LEFT + size + 14;
  const width = sheet.page.getWidth() - LEFT - x;
  sheet.draw("Echtheit prüfen: QR-Code scannen oder die Adresse öffnen", x, 48 + size - 24, {
    size: 9,
    weight: "regular",
    color: MUTED,
  });
  // the address on one line, made smaller when it is long
  const urlSize = Math.min(9, (9 * width) / sheet.words.width(url, "regular", 9));
  sheet.draw(url, x, 48 + size - 40, { size: urlSize, weight: "regular", color: INK });
}

export interface AttendanceConfirmation {
  name: string;
  title: string;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  days: IsoDate[];
  issuedOn: IsoDate;
  issuer: Omit<CertificateIssuerFacts, "logo" | "signature"> | null;
}

/**
 * The simple attendance confirmation of an event without Fortbildung (ADR 0044): the days a video or
 * the webinar link was opened, no signature, no verification. Same layout and fonts as the certificate.
 */
export async function renderAttendancePdf(
  data: AttendanceConfirmation,
  pictures: IssuerPictures,
): Promise<Uint8Array> {
  const { pdf, sheet } = await startDocument(`${MSG_ATTENDANCE.certificateTitle}: ${data.title}`);
  await header(pdf, sheet, data.issuer, pictures);
  sheet.text(MSG_ATTENDANCE.certificateTitle, { bold: true, size: 24, gap: 24 });
  sheet.text("Hiermit bestätigen wir, dass");
  sheet.text(data.name, { bold: true, size: 16 });
  sheet.text("an der Online-Veranstaltung");
  sheet.text(data.title, { bold: true, size: 16, gap: 2 });
  sheet.text(`(${formatCongressDates(data.firstDay, data.lastDay)})`, { gap: 14 });
  sheet.text(
    data.days.length === 1 ? "an folgendem Tag teilgenommen hat:" : "an folgenden Tagen teilgenommen hat:",
  );
  for (const day of data.days) {
    sheet.text(`•  ${germanDayName(day)}`, { gap: 0 });
  }
  sheet.y -= 18;
  sheet.text(
    "Erfasst wurde jeder Tag, an dem ein Video der Veranstaltung oder der Link zum Webinar geöffnet wurde.",
    { size: 10, gap: 30 },
  );
  sheet.text(`Ausgestellt am ${formatGermanDate(data.issuedOn)}`);
  sheet.text("Dieses Dokument wurde maschinell erstellt und ist ohne Unterschrift gültig.", { size: 10 });
  return finish(pdf, sheet);
}
