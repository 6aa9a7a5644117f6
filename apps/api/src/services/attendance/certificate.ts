import { schema } from "@app/db";
import { berlinDate, MSG_ATTENDANCE } from "@app/shared";
import { and, asc, eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { issuerPictures, loadIssuer } from "../certificates/issuer";
import { renderAttendancePdf } from "../certificates/pdf";
import type { ServiceDeps } from "../deps";
import { loadViewer, type ViewerDeps } from "../visitor/viewer";

const { attendances, congresses } = schema;

export interface CertificateFile {
  fileName: string;
  /** the PDF, base64: tRPC answers are JSON */
  base64: string;
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
  // the organiser as the certificates name it, if set: one layout for both documents (ADR 0115)
  const issuer = await loadIssuer(ctx.db);
  const bytes = await renderAttendancePdf(
    {
      name: `${viewer.firstname} ${viewer.lastname}`.trim(),
      title: first.title,
      firstDay: first.firstDay,
      lastDay: first.lastDay,
      days: rows.map((r) => r.day),
      issuedOn: berlinDate(ctx.clock.now()),
      issuer: issuer.name ? issuer : null,
    },
    issuer.name ? await issuerPictures(ctx.db, issuer) : { logo: null, signature: null },
  );
  return {
    fileName: `teilnahmebestaetigung-${congressId}.pdf`,
    base64: Buffer.from(bytes).toString("base64"),
  };
}
