import { z } from "zod";
import { MSG_ADMIN } from "./admin";

/** The largest picture an admin may upload (spec: "höchstens 5 MB"). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The form field of `admin.images.upload` that carries the picture. */
export const IMAGE_UPLOAD_FIELD = "file";

/**
 * The input of `admin.images.upload`: a form with one file of 1 byte to 5 MB in the field `file`. Whether
 * it is a picture is judged later by its content (`storeImage`), never by its name or declared type.
 */
export const ZImageUpload = z
  .instanceof(FormData, { error: MSG_ADMIN.imageInvalid })
  .transform((form, ctx): Blob => {
    const file = form.get(IMAGE_UPLOAD_FIELD);
    if (typeof file === "string" || file === null || file.size === 0 || file.size > MAX_IMAGE_BYTES) {
      ctx.addIssue({ code: "custom", message: MSG_ADMIN.imageInvalid, path: [IMAGE_UPLOAD_FIELD] });
      return z.NEVER;
    }
    return file;
  });

/** What a browser may send as a picture: the formats `storeImage` reads. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

const megabytes = (bytes: number) =>
  `${new Intl.NumberFormat("de-DE", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)} MB`;

/**
 * Why a chosen file cannot be uploaded as a picture, checked in the browser before a byte is sent (the server
 * checks again by content): null when its size and declared type are fine.
 */
export function imageFileProblem(file: { size: number; type: string }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type) || file.size === 0) {
    return "Bitte wählen Sie ein Bild im Format PNG, JPEG oder WebP.";
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `Das Bild ist ${megabytes(file.size)} groß; erlaubt sind höchstens 5 MB. Bitte verkleinern Sie es und wählen Sie es dann erneut.`;
  }
  return null;
}
