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
