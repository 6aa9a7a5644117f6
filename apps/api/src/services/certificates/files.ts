import { type DbOrTx, schema } from "@app/db";
import {
  berlinDate,
  type CertificateCheck,
  type CertificateFacts,
  type CertificateKind,
  type IsoDate,
  MSG_CERTIFICATE,
  maskEfn,
  type PublicCertificate,
} from "@app/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Env } from "../../env";
import { AppError } from "../../lib/app-error";
import { hit, LIMITS } from "../../lib/rate-limit";
import type { CertificateFile } from "../attendance/certificate";
import type { ClientIo, ServiceDeps } from "../deps";
import { certificateCode, codeHash, isWellFormedCode, verifyUrl } from "./code";
import { type CertificateDeps, issueEventCertificates, issueRecordingCertificate } from "./issue";
import { issuerPictures } from "./issuer";
import { renderCertificatePdf } from "./pdf";

const { certificates, congresses, learningCheckAttempts, participations, watchTime } = schema;

export type { CertificateFile };

interface StoredCertificate {
  id: number;
  number: string;
  codeHash: string;
  facts: CertificateFacts;
}

/**
 * The code of a stored certificate, made again from its id; refused when it no longer matches the stored
 * hash (CERTIFICATE_SECRET changed): a PDF whose QR code would not verify is never handed out.
 */
function codeOf(env: Pick<Env, "CERTIFICATE_SECRET">, row: Pick<StoredCertificate, "id" | "codeHash">) {
  const code = certificateCode(env.CERTIFICATE_SECRET, row.id);
  if (codeHash(code) !== row.codeHash) {
    throw new AppError(
      "INTERNAL",
      `certificate ${row.id}: code does not match its hash (CERTIFICATE_SECRET changed?)`,
      MSG_CERTIFICATE.codeSecretChanged,
    );
  }
  return code;
}

/** The verification address of a stored certificate; null when its code cannot be made again (the list stays). */
function currentVerifyUrl(
  env: Pick<Env, "CERTIFICATE_SECRET" | "APP_URL">,
  row: Pick<StoredCertificate, "id" | "codeHash">,
) {
  const code = certificateCode(env.CERTIFICATE_SECRET, row.id);
  return codeHash(code) === row.codeHash ? verifyUrl(env.APP_URL, code) : null;
}

/** The PDF of a stored certificate, made from its frozen facts (in the profile, by mail, for admins). */
export async function certificatePdf(
  deps: { db: DbOrTx; env: Pick<Env, "CERTIFICATE_SECRET" | "APP_URL"> },
  row: StoredCertificate,
): Promise<Uint8Array> {
  const code = codeOf(deps.env, row);
  return renderCertificatePdf(row.facts, {
    number: row.number,
    verifyUrl: verifyUrl(deps.env.APP_URL, code),
    pictures: await issuerPictures(deps.db, row.facts.issuer),
  });
}

export const certificateFileName = (number: string) => `teilnahmebescheinigung-${number}.pdf`;

const storedColumns = {
  id: certificates.id,
  number: certificates.number,
  codeHash: certificates.codeHash,
  facts: sql<CertificateFacts>`${certificates.facts}`,
};

/** A participant's own certificate as a PDF; another's is "not found", a revoked one refused. */
export async function myCertificateFile(
  deps: Pick<ServiceDeps, "db" | "env">,
  input: { userId: number; id: number },
): Promise<CertificateFile> {
  const [row] = await deps.db
    .select({ ...storedColumns, revokedAt: certificates.revokedAt })
    .from(certificates)
    .where(and(eq(certificates.id, input.id), eq(certificates.userId, input.userId)));
  if (!row) {
    throw new AppError(
      "NOT_FOUND",
      `certificate ${input.id} of user ${input.userId}`,
      MSG_CERTIFICATE.notFound,
      MSG_CERTIFICATE.notFoundTitle,
    );
  }
  if (row.revokedAt) {
    throw new AppError(
      "FORBIDDEN",
      `certificate ${input.id} revoked`,
      MSG_CERTIFICATE.revoked,
      MSG_CERTIFICATE.revokedTitle,
    );
  }
  const bytes = await certificatePdf(deps, row);
  return { fileName: certificateFileName(row.number), base64: Buffer.from(bytes).toString("base64") };
}

/** Any certificate as a PDF, for admins (support) and the mail attachment. */
export async function anyCertificateFile(
  deps: { db: DbOrTx; env: Pick<Env, "CERTIFICATE_SECRET" | "APP_URL"> },
  id: number,
): Promise<{ fileName: string; bytes: Uint8Array } | null> {
  const [row] = await deps.db.select(storedColumns).from(certificates).where(eq(certificates.id, id));
  return row ? { fileName: certificateFileName(row.number), bytes: await certificatePdf(deps, row) } : null;
}

export interface MyCertificate {
  id: number;
  number: string;
  kind: CertificateKind;
  congressTitle: string;
  packageName: string | null;
  points: number;
  issuedOn: IsoDate;
  revokedOn: IsoDate | null;
  /** the verification page's address (only for current certificates) */
  verifyUrl: string | null;
}

/**
 * "Meine Bescheinigungen": the participant's certificates, newest first. Event certificates due since the
 * last run of the delivery job are issued first (ADR 0116), so the profile never waits for the job.
 */
export async function myCertificates(
  deps: Pick<ServiceDeps, "db" | "env" | "clock">,
  userId: number,
): Promise<MyCertificate[]> {
  await issueDueForUser(deps, userId);
  const rows = await deps.db
    .select({
      ...storedColumns,
      kind: certificates.kind,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      replacedBy: certificates.replacedBy,
    })
    .from(certificates)
    .where(eq(certificates.userId, userId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id));
  return (
    rows
      // a replaced certificate is the admin's business; the participant sees its successor
      .filter((r) => r.replacedBy === null)
      .map((r) => ({
        id: r.id,
        number: r.number,
        kind: r.kind as CertificateKind,
        congressTitle: r.facts.congress.title,
        packageName: r.facts.recording?.packageName ?? null,
        points: r.facts.points,
        issuedOn: r.facts.issuedOn,
        revokedOn: r.revokedAt ? berlinDate(r.revokedAt) : null,
        verifyUrl: r.revokedAt ? null : currentVerifyUrl(deps.env, r),
      }))
  );
}

/** How long after an event's last day its certificates are issued automatically (job and profile). */
export const ISSUE_WINDOW_DAYS = 60;

/** Fortbildung events whose last day is over, at most `ISSUE_WINDOW_DAYS` ago. */
const endedWithinWindow = (today: IsoDate) => {
  const lastDay = sql`coalesce(${congresses.lastDay}, ${congresses.firstDay})`;
  return and(
    eq(congresses.fortbildung, true),
    sql`${lastDay} < ${today}::date`,
    sql`${lastDay} >= ${today}::date - ${ISSUE_WINDOW_DAYS}::int`,
  );
};

/** The participant's ended Fortbildung events of the window without an event certificate yet. */
async function issueDueForUser(deps: CertificateDeps, userId: number): Promise<void> {
  const today = berlinDate(deps.clock.now());
  const candidates = await deps.db
    .select({ id: congresses.id })
    .from(congresses)
    .where(
      and(
        endedWithinWindow(today),
        sql`(EXISTS (SELECT 1 FROM ${participations} p WHERE p.congress_id = ${congresses.id} AND p.user_id = ${userId})
          OR EXISTS (SELECT 1 FROM ${watchTime} w WHERE w.congress_id = ${congresses.id} AND w.user_id = ${userId}))`,
        sql`NOT EXISTS (SELECT 1 FROM ${certificates} c WHERE c.congress_id = ${congresses.id}
          AND c.user_id = ${userId} AND c.kind = 'event')`,
      ),
    );
  for (const { id } of candidates) {
    await issueEventCertificates(deps, { congressId: id, userId });
  }
  // recordings passed while no organiser was named yet
  const passed = await deps.db
    .selectDistinct({ checkId: learningCheckAttempts.checkId })
    .from(learningCheckAttempts)
    .where(
      and(
        eq(learningCheckAttempts.userId, userId),
        eq(learningCheckAttempts.passed, true),
        sql`NOT EXISTS (SELECT 1 FROM ${certificates} c WHERE c.learning_check_id = ${learningCheckAttempts.checkId}
          AND c.user_id = ${userId} AND c.kind = 'recording')`,
      ),
    );
  for (const { checkId } of passed) {
    await issueRecordingCertificate(deps, { userId, learningCheckId: checkId });
  }
}

/** The ended Fortbildung events of the window: the delivery job issues their due certificates. */
export async function endedFortbildungEvents(db: DbOrTx, today: IsoDate): Promise<number[]> {
  const rows = await db.select({ id: congresses.id }).from(congresses).where(endedWithinWindow(today));
  return rows.map((r) => r.id);
}

/** The facts anyone with the code may read: no picture names, the EFN by its last four digits only. */
const publicFacts = (number: string, facts: CertificateFacts): PublicCertificate => {
  const { logo: _logo, signature: _signature, ...issuer } = facts.issuer;
  const { name, efn } = facts.participant;
  return { ...facts, participant: { name, efn: efn === null ? null : maskEfn(efn) }, issuer, number };
};

/**
 * The public verification (`/bescheinigung/<code>`): looked up by the code's hash only, so neither a
 * number nor an id leads anywhere. Counted per client address like other public lookups; a malformed
 * code is "unknown" without a lookup.
 */
export async function verifyCertificate(
  deps: Pick<ServiceDeps, "db" | "clock"> & Pick<ClientIo, "ip">,
  code: string,
): Promise<CertificateCheck> {
  await hit(deps, [`certificate-verify:ip:${deps.ip}`, LIMITS.certificateVerifyPerIp]);
  const trimmed = code.trim();
  if (!isWellFormedCode(trimmed)) {
    return { status: "unknown" };
  }
  const [row] = await deps.db
    .select({
      number: certificates.number,
      facts: storedColumns.facts,
      revokedAt: certificates.revokedAt,
      replacedBy: certificates.replacedBy,
    })
    .from(certificates)
    .where(eq(certificates.codeHash, codeHash(trimmed)));
  if (!row) {
    return { status: "unknown" };
  }
  const certificate = publicFacts(row.number, row.facts);
  return row.revokedAt
    ? {
        status: "revoked",
        certificate,
        revokedOn: berlinDate(row.revokedAt),
        replaced: row.replacedBy !== null,
      }
    : { status: "valid", certificate };
}
