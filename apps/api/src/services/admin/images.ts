import { createHash } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import { MAX_IMAGE_BYTES, MSG_ADMIN } from "@app/shared";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { AppError } from "../../lib/app-error";

const ACCEPTED = new Set(["png", "jpeg", "webp"]);
const MAX_EDGE = 1600;

const invalid = (why: string) => new AppError("BAD_REQUEST", `image refused: ${why}`, MSG_ADMIN.imageInvalid);

/**
 * Stores an uploaded picture: accepted only as PNG, JPEG or WebP judged by its content (never by name or
 * declared type), at most 5 MB; re-encoded as WebP (which drops every metadata block) and bounded to
 * 1600 px. The file name is derived from the content, so the URL can be cached for ever.
 */
export async function storeImage(db: DbOrTx, data: Buffer): Promise<string> {
  if (data.length === 0 || data.length > MAX_IMAGE_BYTES) {
    throw invalid(`size ${data.length}`);
  }
  let encoded: Buffer;
  try {
    const image = sharp(data, { failOn: "error", limitInputPixels: 40_000_000 });
    const { format } = await image.metadata();
    if (!format || !ACCEPTED.has(format)) {
      throw invalid(`format ${format}`);
    }
    encoded = await image
      .rotate() // apply the EXIF orientation before the metadata goes
      .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (error) {
    throw error instanceof AppError ? error : invalid(String(error));
  }
  const sha256 = createHash("sha256").update(encoded).digest("hex");
  const fileName = `${sha256.slice(0, 32)}.webp`;
  await db
    .insert(schema.images)
    .values({ fileName, mimeType: "image/webp", byteSize: encoded.length, sha256, data: encoded })
    // the same picture again starts its grace period anew (see deleteOrphanedImages): it is about to be used
    .onConflictDoUpdate({ target: schema.images.fileName, set: { createdAt: sql`now()` } });
  return fileName;
}

/** The answer to an upload: the stored name (what a form saves) and where the picture is served. */
export async function uploadImage(db: DbOrTx, file: Blob): Promise<{ fileName: string; url: string }> {
  const fileName = await storeImage(db, Buffer.from(await file.arrayBuffer()));
  return { fileName, url: `/uploads/images/${fileName}` };
}

/**
 * An upload nothing refers to yet is kept this long: its form may not be saved yet (an open editor, a
 * dialog left for lunch). Uploading the same picture again starts the time anew.
 */
export const ORPHANED_IMAGE_GRACE_HOURS = 24;

/**
 * Deletes the pictures nothing refers to, uploaded more than `ORPHANED_IMAGE_GRACE_HOURS` ago. Referred
 * to: an event's or package's picture, and any text the rich-text editor or an admin writes HTML into
 * (event and package descriptions, mail templates, legal pages, contents), the certificates' issuer and the
 * issuer frozen in each issued certificate (ADR 0115), where the file name is looked for
 * anywhere (an absolute `https://…/uploads/images/<name>` as the editor inserts it, a relative one, …):
 * a name that merely looks referred to keeps its picture, never the other way round.
 */
export async function deleteOrphanedImages(db: DbOrTx): Promise<number> {
  const { images, congresses, congressPackages, mailTemplates, legalPages, congressContents } = schema;
  const named = (text: unknown) => sql`strpos(${text}, ${images.fileName}) > 0`;
  const result = await db.execute(sql`
    DELETE FROM ${images}
     WHERE ${images.createdAt} < now() - make_interval(hours => ${ORPHANED_IMAGE_GRACE_HOURS})
       AND NOT EXISTS (SELECT 1 FROM ${congresses}
                        WHERE ${congresses.picture} = ${images.fileName} OR ${named(congresses.description)})
       AND NOT EXISTS (SELECT 1 FROM ${congressPackages}
                        WHERE ${congressPackages.picture} = ${images.fileName}
                           OR ${named(congressPackages.description)})
       AND NOT EXISTS (SELECT 1 FROM ${mailTemplates}
                        WHERE ${named(mailTemplates.content)} OR ${named(mailTemplates.description)}
                           OR ${named(mailTemplates.subject)})
       AND NOT EXISTS (SELECT 1 FROM ${legalPages} WHERE ${named(legalPages.html)})
       AND NOT EXISTS (SELECT 1 FROM ${congressContents} WHERE ${named(sql`${congressContents.data}::text`)})
       AND NOT EXISTS (SELECT 1 FROM certificate_issuer ci
                        WHERE ${images.fileName} IN (ci.logo, ci.signature))
       AND ${images.fileName} NOT IN (
             -- the pictures frozen in issued certificates: their PDF is made again whenever asked for
             SELECT name FROM certificates c,
               LATERAL (VALUES (c.facts->'issuer'->>'logo'), (c.facts->'issuer'->>'signature')) AS p(name)
              WHERE name IS NOT NULL)`);
  return result.rowCount ?? 0;
}
