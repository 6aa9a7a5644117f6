import { type ErrorBody, toErrorBody } from "@app/shared";
import { TRPCClientError } from "@trpc/client";
import { createAlertStore } from "./queue";

export { waitsForAnswer } from "./queue";

/** The app's one alert store (spec section 4); rendered by <AlertHost />. */
export const alerts = createAlertStore();

/**
 * The event handlers that hold the alert or dialog `id` open while the pointer is over it or the keyboard
 * focus is on a control inside it (the dialog itself takes the focus when it opens, which holds nothing).
 */
export function holdWhileBusy(id: number) {
  return {
    onPointerEnter: () => alerts.hold(id, "pointer"),
    onPointerLeave: () => alerts.release(id, "pointer"),
    onFocus: (event: { target: unknown; currentTarget: unknown }) => {
      if (event.target !== event.currentTarget) {
        alerts.hold(id, "focus");
      }
    },
    onBlur: () => alerts.release(id, "focus"),
  };
}

/** `{title, detail}` of anything a call threw: tRPC errors carry them in `data`, REST answers in the body. */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof TRPCClientError) {
    return toErrorBody(error.data);
  }
  return toErrorBody(error);
}

/** Whether a call was refused for want of a valid session (401). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.httpStatus === 401;
}

/** Whether the record a call acted on is gone or changed under it (404, 409): what is shown is out of date. */
export function isOutdated(error: unknown): boolean {
  return error instanceof TRPCClientError && [404, 409].includes(error.data?.httpStatus);
}

/** Shows the error dialog for a failed call. */
export function showError(error: unknown): Promise<boolean> {
  return alerts.error(errorBody(error));
}

/** The machine-readable reason the server gave for a refusal (e.g. which access check failed). */
export function errorReason(error: unknown): string | undefined {
  if (error instanceof TRPCClientError) {
    const reason = (error.data as { reason?: unknown } | undefined)?.reason;
    return typeof reason === "string" ? reason : undefined;
  }
  return undefined;
}

/**
 * The id the API gave the request that failed (its `x-request-id` header), for support to find it in the
 * logs; undefined when no answer came (network down) or the error was not a call's.
 */
export function requestIdOf(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) {
    return undefined;
  }
  const response = (error.meta as { response?: unknown } | undefined)?.response;
  return response instanceof Response ? (response.headers.get("x-request-id") ?? undefined) : undefined;
}
