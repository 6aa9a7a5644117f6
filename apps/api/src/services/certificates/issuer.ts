import { type DbOrTx, schema } from "@app/db";
import type { CertificateIssuerFacts, TCertificateIssuerInput } from "@app/shared";
import { ZCertificateIssuerInput } from "@app/shared";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { adminActor, changedFields, recordAudit } from "../admin/audit";
import type { IssuerPictures } from "./pdf";

const { certificateIssuer, images } = schema;

const EMPTY: CertificateIssuerFacts = { name: "", address: "", signatory: "", logo: null, signature: null };

/** The organiser as the certificates name it (one row, id 1; empty until an admin saves it). */
export async function loadIssuer(db: DbOrTx): Promise<CertificateIssuerFacts> {
  const [row] = await db
    .select({
      name: certificateIssuer.name,
      address: certificateIssuer.address,
      signatory: certificateIssuer.signatory,
      logo: certificateIssuer.logo,
      signature: certificateIssuer.signature,
    })
    .from(certificateIssuer)
    .where(eq(certificateIssuer.id, 1));
  return row ?? EMPTY;
}

/** Saves the organiser (name, address, logo, signature, signatory), audited in the same transaction. */
export async function saveIssuer(
  db: DbOrTx,
  input: TCertificateIssuerInput,
  actorId: number,
): Promise<CertificateIssuerFacts> {
  const values = ZCertificateIssuerInput.parse(input);
  return db.transaction(async (tx) => {
    const before = await loadIssuer(tx);
    await tx
      .insert(certificateIssuer)
      .values({ id: 1, ...values, updatedBy: actorId })
      .onConflictDoUpdate({ target: certificateIssuer.id, set: { ...values, updatedBy: actorId } });
    const changes = changedFields({ ...before }, { ...values });
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: "certificate.issuer",
        entity: "certificate",
        entityId: null,
        changes,
      });
    }
    return { ...values };
  });
}

/**
 * The issuer's logo and signature as PNG for the PDF (uploads are stored as WebP, which pdf-lib cannot
 * embed). A picture that is gone (never, while a certificate names it: see the retention of pictures) is left out.
 */
export async function issuerPictures(
  db: DbOrTx,
  issuer: Pick<CertificateIssuerFacts, "logo" | "signature">,
): Promise<IssuerPictures> {
  const names = [issuer.logo, issuer.signature].filter((name): name is string => Boolean(name));
  const rows = names.length
    ? await db
        .select({ fileName: images.fileName, data: images.data })
        .from(images)
        .where(inArray(images.fileName, names))
    : [];
  const png = async (name: string | null) => {
    const row = rows.find((r) => r.fileName === name);
    return row ? new Uint8Array(await sharp(row.data).png().toBuffer()) : null;
  };
  return { logo: await png(issuer.logo), signature: await png(issuer.signature) };
}
