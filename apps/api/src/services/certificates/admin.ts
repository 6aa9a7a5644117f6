import { type DbOrTx, schema } from "@app/db";
import { type CertificateFacts, MSG_CERTIFICATE } from "@app/shared";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { adminPage } from "../../lib/paging";
import { adminActor, recordAudit } from "../admin/audit";
import type { ServiceDeps } from "../deps";
import { anyCertificateFile, type CertificateFile } from "./files";
import { currentFacts, insertCertificate } from "./issue";

const { certificates, users } = schema;

/** The section "Bescheinigungen": one event's certificates, current and revoked, newest first. */
export async function listCertificates(db: DbOrTx, input: { congressId: number; page: number }) {
  const where = eq(certificates.congressId, input.congressId);
  return adminPage(
    db,
    { table: certificates, where, page: input.page },
    db
      .select({
        id: certificates.id,
        number: certificates.number,
        kind: certificates.kind,
        userId: certificates.userId,
        email: users.email,
        facts: sql<CertificateFacts>`${certificates.facts}`,
        issuedAt: certificates.issuedAt,
        mailedAt: certificates.mailedAt,
        revokedAt: certificates.revokedAt,
        revokedReason: certificates.revokedReason,
        replacedBy: certificates.replacedBy,
      })
      .from(certificates)
      .innerJoin(users, eq(users.id, certificates.userId))
      .where(where)
      .orderBy(desc(certificates.issuedAt), desc(certificates.id))
      .$dynamic(),
    (row) => ({
      id: row.id,
      number: row.number,
      kind: row.kind,
      userId: row.userId,
      email: row.email,
      name: row.facts.participant.name,
      efn: row.facts.participant.efn,
      points: row.facts.points,
      packageName: row.facts.recording?.packageName ?? null,
      issuedAt: row.issuedAt,
      mailedAt: row.mailedAt,
      revokedAt: row.revokedAt,
      revokedReason: row.revokedReason,
      replacedBy: row.replacedBy,
    }),
  );
}

const notFound = (id: number) =>
  new AppError("NOT_FOUND", `certificate ${id}`, MSG_CERTIFICATE.notFound, MSG_CERTIFICATE.notFoundTitle);

/** Revokes a current certificate with a reason (kept for the admins, never shown publicly), audited. */
export async function revokeCertificate(
  deps: Pick<ServiceDeps, "db" | "clock">,
  input: { id: number; reason: string },
  actorId: number,
): Promise<{ id: number; number: string }> {
  return deps.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(certificates)
      .set({ revokedAt: deps.clock.now(), revokedReason: input.reason, revokedBy: actorId })
      .where(and(eq(certificates.id, input.id), isNull(certificates.revokedAt)))
      .returning({ id: certificates.id, number: certificates.number });
    if (!revoked) {
      const [exists] = await tx
        .select({ id: certificates.id })
        .from(certificates)
        .where(eq(certificates.id, input.id));
      throw exists
        ? new AppError(
            "CONFLICT",
            `certificate ${input.id} already revoked`,
            MSG_CERTIFICATE.alreadyRevoked,
            MSG_CERTIFICATE.revokedTitle,
          )
        : notFound(input.id);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "certificate.revoke",
      entity: "certificate",
      entityId: revoked.id,
      changes: { number: revoked.number, reason: input.reason },
    });
    return revoked;
  });
}

/**
 * Re-issues a certificate after a correction (name, EFN, a late participant report): a new number with the
 * facts as they are now; the old one is revoked (if it was not yet) and points to the new one. One
 * transaction, audited; the delivery job mails the new one.
 */
export async function reissueCertificate(
  deps: Pick<ServiceDeps, "db" | "clock" | "env">,
  input: { id: number },
  actorId: number,
): Promise<{ id: number; number: string }> {
  return deps.db.transaction(async (tx) => {
    const [old] = await tx
      .select({
        id: certificates.id,
        number: certificates.number,
        userId: certificates.userId,
        congressId: certificates.congressId,
        kind: certificates.kind,
        learningCheckId: certificates.learningCheckId,
        revokedAt: certificates.revokedAt,
        replacedBy: certificates.replacedBy,
      })
      .from(certificates)
      .where(eq(certificates.id, input.id))
      .for("update");
    if (!old || old.replacedBy !== null) {
      // a replaced certificate's successor is the one to re-issue
      throw notFound(input.id);
    }
    const txDeps = { db: tx, env: deps.env, clock: deps.clock };
    const facts = await currentFacts(txDeps, old);
    const now = deps.clock.now();
    if (!old.revokedAt) {
      await tx
        .update(certificates)
        .set({ revokedAt: now, revokedReason: "Neu ausgestellt", revokedBy: actorId })
        .where(eq(certificates.id, old.id));
    }
    const made = await insertCertificate(txDeps, {
      userId: old.userId,
      congressId: old.congressId,
      kind: old.kind as "event" | "recording",
      learningCheckId: old.learningCheckId,
      facts,
    });
    if (!made) {
      throw new AppError(
        "CONFLICT",
        `certificate ${old.id}: a current one exists already`,
        MSG_CERTIFICATE.alreadyRevoked,
      );
    }
    await tx.update(certificates).set({ replacedBy: made.id }).where(eq(certificates.id, old.id));
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "certificate.reissue",
      entity: "certificate",
      entityId: old.id,
      changes: { number: [old.number, made.number], replacedBy: made.id },
    });
    return made;
  });
}

/** Any certificate's PDF for an admin (support: what the participant holds). */
export async function adminCertificateFile(
  deps: Pick<ServiceDeps, "db" | "env">,
  id: number,
): Promise<CertificateFile> {
  const file = await anyCertificateFile(deps, id);
  if (!file) {
    throw notFound(id);
  }
  return { fileName: file.fileName, base64: Buffer.from(file.bytes).toString("base64") };
}
