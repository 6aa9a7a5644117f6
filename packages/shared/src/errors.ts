import { MSG } from "./messages";

/** The error object every failed call yields (spec section 8). */
export interface ErrorBody {
  title: string;
  detail: string;
}

/**
 * A way on from a refusal, as a path of the web app (e.g. to the bought package when a purchase is
 * refused because it was bought already); carried beside `{title, detail}` in the tRPC error's data.
 */
export interface ErrorLink {
  label: string;
  href: string;
}

export const DEFAULT_ERROR: ErrorBody = {
  title: MSG.defaultErrorTitle,
  detail: MSG.defaultErrorDetail,
};

/** Reads `{title, detail}` from anything a server answered, falling back to the spec's defaults. */
export function toErrorBody(value: unknown): ErrorBody {
  if (typeof value !== "object" || value === null) {
    return DEFAULT_ERROR;
  }
  const { title, detail } = value as Record<string, unknown>;
  return {
    title: typeof title === "string" && title.trim() !== "" ? title : DEFAULT_ERROR.title,
    detail: typeof detail === "string" && detail.trim() !== "" ? detail : DEFAULT_ERROR.detail,
  };
}

/** Error codes of the whole product; the API maps each to an HTTP status and a tRPC code. */
export const ERROR_CODES = [
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "TOO_MANY_REQUESTS",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
