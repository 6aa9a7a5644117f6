import { toErrorBody } from "@app/shared";
import { session } from "./auth";

/** Uploads a picture to `POST /api/images` with progress (0..1); resolves with its stored file name. */
export async function uploadImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const token = await session.getToken();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/images");
    if (token) {
      request.setRequestHeader("authorization", `Bearer ${token}`);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        onProgress(event.loaded / event.total);
      }
    };
    request.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // not JSON: the default error texts apply
      }
      if (request.status >= 200 && request.status < 300) {
        resolve((body as { fileName: string }).fileName);
      } else {
        reject(toErrorBody(body));
      }
    };
    request.onerror = () => reject(toErrorBody({}));
    const form = new FormData();
    form.append("newPicture", file);
    request.send(form);
  });
}
