import { IMAGE_UPLOAD_FIELD, imageFileProblem, MSG } from "@app/shared";
import { trpcClient } from "./trpc";
import type { UploadContext } from "./upload-link";

/**
 * Uploads a picture with `admin.images.upload`, reporting progress (0..1); resolves with its stored file
 * name. A refusal rejects with the tRPC error (its `{title, detail}` for the error dialog).
 */
export async function uploadImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  // checked before a byte is sent: a picture over 5 MB would otherwise go up in full before the refusal
  const problem = imageFileProblem(file);
  if (problem) {
    throw { title: MSG.validationTitle, detail: problem };
  }
  const form = new FormData();
  form.append(IMAGE_UPLOAD_FIELD, file);
  const context: UploadContext = { onUploadProgress: onProgress };
  const { fileName } = await trpcClient.admin.images.upload.mutate(form, { context: { ...context } });
  return fileName;
}
