import { createHash } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import { MSG_ADMIN } from "@app/shared";
import sharp from "sharp";
import { AppError } from "../../lib/app-error";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
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
    .onConflictDoNothing({ target: schema.images.fileName });
  return fileName;
}
