import type { AppRouter } from "@app/api/router";
import { type HTTPLinkOptions, httpLink, type TRPCLink } from "@trpc/client";
import type { inferTRPCClientTypes } from "@trpc/server";

/** What a form-data call may carry in its tRPC `context`. */
export interface UploadContext {
  /** called with the part of the body sent so far (0..1) */
  onUploadProgress?: (fraction: number) => void;
}

/** The response headers of an XHR as a `Headers` object. */
function responseHeaders(request: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of request
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
  }
  return headers;
}

/**
 * `fetch` over XMLHttpRequest: fetch cannot report how much of a request body has been sent, XHR's
 * `upload.onprogress` can, which is what the progress bar of a picture upload shows.
 */
function progressFetch(onProgress: ((fraction: number) => void) | undefined) {
  return (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(init?.method ?? "POST", String(url));
      for (const [name, value] of new Headers(init?.headers)) {
        request.setRequestHeader(name, value);
      }
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) {
          onProgress?.(event.loaded / event.total);
        }
      };
      request.onload = () =>
        resolve(
          new Response(request.responseText, { status: request.status, headers: responseHeaders(request) }),
        );
      request.onerror = () => reject(new TypeError("Netzwerkfehler beim Hochladen"));
      request.onabort = () => reject(new DOMException("Hochladen abgebrochen", "AbortError"));
      init?.signal?.addEventListener("abort", () => request.abort());
      request.send(init?.body as XMLHttpRequestBodyInit | null);
    });
}

/**
 * The link for calls whose input is form data (`admin.images.upload`): one call per request (form data
 * cannot be batched) with the app's headers and transformer, sent by `progressFetch` with the call's
 * `onUploadProgress`.
 */
export function uploadLink(
  options: Omit<HTTPLinkOptions<inferTRPCClientTypes<AppRouter>>, "fetch">,
): TRPCLink<AppRouter> {
  return (runtime) =>
    ({ op, next }) =>
      httpLink<AppRouter>({
        ...options,
        fetch: progressFetch((op.context as UploadContext).onUploadProgress),
      })(runtime)({ op, next });
}
