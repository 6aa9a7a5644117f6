import { schema } from "@app/db";
import {
  berlinDate,
  formatCongressDates,
  formatGermanDate,
  type IsoDate,
  LOCALE,
  MSG_ATTENDANCE,
} from "@app/shared";
import { and, asc, eq } from "drizzle-orm";
import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import { AppError } from "../../lib/app-error";
import type { ServiceDeps } from "../deps";
import { loadViewer, type ViewerDeps } from "../visitor/viewer";

const { attendances, congresses } = schema;

export interface CertificateFile {
  fileName: string;
  /** the PDF, base64: tRPC answers are JSON */
  base64: string;
}

interface CertificateData {
  name: string;
  title: string;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
  days: IsoDate[];
  issuedOn: IsoDate;
}

const weekday = new Intl.DateTimeFormat(LOCALE, { weekday: "long", timeZone: "UTC" });
/** "Montag, 23.11.2026" */
const germanDay = (day: IsoDate) =>
  `${weekday.format(new Date(`${day}T12:00:00Z`))}, ${formatGermanDate(day)}`;

/**
 * The standard fonts know only WinAnsi (German umlauts and ß included): other letters lose their accent
 * (e.g. "ă" → "a"), anything else becomes "?", so an unusual name never breaks the document.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.normalize("NFC")]
    .map((char) => {
      if (known.has(char.codePointAt(0) ?? 0)) {
        return char;
      }
      const base = char.normalize("NFD").replace(/\p{M}/gu, "");
      return [...base].every((c) => known.has(c.codePointAt(0) ?? 0)) && base ? base : "?";
    })
    .join("");
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  return line ? [...lines, line] : lines;
}

export async function renderCertificate(data: CertificateData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${MSG_ATTENDANCE.certificateTitle}: ${data.title}`);
  pdf.setLanguage("de-DE");
  pdf.setCreator("Kongress-Plattform");
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const left = 70;
  const width = page.getWidth() - 2 * left;
  let y = page.getHeight() - 110;
  const text = (value: string, options: { font?: PDFFont; size?: number; gap?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 12;
    for (const line of wrap(font, printable(font, value), size, width)) {
      page.drawText(line, { x: left, y, size, font, color: rgb(0.1, 0.1, 0.15) });
      y -= size * 1.4;
    }
    y -= options.gap ?? 8;
  };

  text(MSG_ATTENDANCE.certificateTitle, { font: bold, size: 26, gap: 30 });
  text("Hiermit bestätigen wir, dass");
  text(data.name, { font: bold, size: 16 });
  text("an der Online-Veranstaltung");
  text(data.title, { font: bold, size: 16, gap: 2 });
  text(`(${formatCongressDates(data.firstDay, data.lastDay)})`, { gap: 14 });
  text(
    data.days.length === 1 ? "an folgendem Tag teilgenommen hat:" : "an folgenden Tagen teilgenommen hat:",
  );
  for (const day of data.days) {
    text(`•  ${germanDay(day)}`, { gap: 0 });
  }
  y -= 18;
  text(
    "Erfasst wurde jeder Tag, an dem ein Video der Veranstaltung oder der Link zum Webinar geöffnet wurde.",
    { size: 10, gap: 30 },
  );
  text(`Ausgestellt am ${formatGermanDate(data.issuedOn)}`);
  text("Dieses Dokument wurde maschinell erstellt und ist ohne Unterschrift gültig.", { size: 10 });
  return pdf.save();
}

/** The signed-in visitor's attendance confirmation for one event; refused without recorded attendance. */
export async function attendanceCertificate(
  ctx: ViewerDeps & Pick<ServiceDeps, "clock">,
  { userId, congressId }: { userId: number; congressId: number },
): Promise<CertificateFile> {
  const viewer = await loadViewer(ctx, userId);
  const rows = await ctx.db
    .select({
      title: congresses.title,
      firstDay: congresses.firstDay,
      lastDay: congresses.lastDay,
      day: attendances.day,
    })
    .from(attendances)
    .innerJoin(congresses, eq(congresses.id, attendances.congressId))
    .where(and(eq(attendances.userId, viewer.id), eq(attendances.congressId, congressId)))
    .orderBy(asc(attendances.day));
  const first = rows[0];
  if (!first) {
    throw new AppError(
      "FORBIDDEN",
      `no attendance of user ${viewer.id} at congress ${congressId}`,
      MSG_ATTENDANCE.noAttendance,
      MSG_ATTENDANCE.noAttendanceTitle,
      "no-attendance",
    );
  }
  const bytes = await renderCertificate({
    name: `${viewer.firstname} ${viewer.lastname}`.trim(),
    title: first.title,
    firstDay: first.firstDay,
    lastDay: first.lastDay,
    days: rows.map((r) => r.day),
    issuedOn: berlinDate(ctx.clock.now()),
  });
  return {
    fileName: `teilnahmebestaetigung-${congressId}.pdf`,
    base64: Buffer.from(bytes).toString("base64"),
  };
}
