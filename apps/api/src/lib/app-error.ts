import { type ErrorBody, type ErrorCode, type ErrorLink, MSG, type Refusal } from "@app/shared";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, z } from "zod";
import { dataException } from "./db-errors";

/**
 * The one error type for expected failures. `message` is for developers and logs; `userMessage`
 * (German) becomes the `detail` the visitor sees.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly userMessage?: string,
    readonly userTitle?: string,
    /** machine-readable reason for clients that react differently (e.g. which access check failed) */
    readonly reason?: string,
    /** ways on from the refusal (paths of the web app), shown beside the detail */
    readonly links?: ErrorLink[],
  ) {
    super(message);
    this.name = "AppError";
  }
}

/**
 * A refusal of the table `REFUSALS` (packages/shared/src/refusals.ts): its code, title and detail, so a
 * refusal's dialog text lives in one table that a test reads. `message` is for developers and logs.
 */
export function refuse(refusal: Refusal, message: string, reason?: string): AppError {
  return new AppError(refusal.code, message, refusal.detail, refusal.title, reason);
}

interface CodeMapping {
  status: number;
  trpc: TRPC_ERROR_CODE_KEY;
  title: string;
  detail: string;
}

export const ERROR_MAP: Record<ErrorCode, CodeMapping> = {
  BAD_REQUEST: {
    status: 400,
    trpc: "BAD_REQUEST",
    title: MSG.validationTitle,
    detail: MSG.badRequestDetail,
  },
  UNAUTHORIZED: {
    status: 401,
    trpc: "UNAUTHORIZED",
    title: MSG.unauthorizedTitle,
    detail: MSG.unauthorizedDetail,
  },
  FORBIDDEN: { status: 403, trpc: "FORBIDDEN", title: MSG.forbiddenTitle, detail: MSG.forbiddenDetail },
  NOT_FOUND: { status: 404, trpc: "NOT_FOUND", title: MSG.notFoundTitle, detail: MSG.notFoundDetail },
  CONFLICT: { status: 409, trpc: "CONFLICT", title: MSG.defaultErrorTitle, detail: MSG.conflictDetail },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    trpc: "PAYLOAD_TOO_LARGE",
    title: MSG.defaultErrorTitle,
    detail: MSG.payloadTooLargeDetail,
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    trpc: "TOO_MANY_REQUESTS",
    title: MSG.tooManyRequestsTitle,
    detail: MSG.tooManyRequestsDetail,
  },
  INTERNAL: {
    status: 500,
    trpc: "INTERNAL_SERVER_ERROR",
    title: MSG.defaultErrorTitle,
    detail: MSG.defaultErrorDetail,
  },
};

const TRPC_TO_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = Object.fromEntries(
  Object.entries(ERROR_MAP).map(([code, m]) => [m.trpc, code as ErrorCode]),
);

export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: ERROR_MAP[error.code].trpc, message: error.message, cause: error });
}

/** The `{title, detail}` body and HTTP status for any error; unknown errors never reveal their message. */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ErrorBody;
  reason?: string;
  links?: ErrorLink[];
} {
  const appError = findCause(error, AppError);
  if (appError) {
    const m = ERROR_MAP[appError.code];
    return {
      status: m.status,
      body: { title: appError.userTitle ?? m.title, detail: appError.userMessage ?? m.detail },
      ...(appError.reason && { reason: appError.reason }),
      ...(appError.links?.length && { links: appError.links }),
    };
  }
  const zodError = findCause(error, ZodError);
  if (zodError) {
    const details = [...new Set(zodError.issues.map((issue) => issue.message))];
    return { status: 400, body: { title: MSG.validationTitle, detail: details.join(" ") } };
  }
  if (dataException(error)) {
    return { status: 400, body: { title: MSG.validationTitle, detail: MSG.invalidValueDetail } };
  }
  // tRPC wraps a body or `input` that is no JSON in a BAD_REQUEST (or PARSE_ERROR) caused by a SyntaxError
  if (
    error instanceof TRPCError &&
    (error.code === "PARSE_ERROR" || (error.code === "BAD_REQUEST" && error.cause instanceof SyntaxError))
  ) {
    return { status: 400, body: { title: MSG.defaultErrorTitle, detail: MSG.invalidJsonDetail } };
  }
  // ... and a form-data body it cannot read (no boundary, cut off) in a BAD_REQUEST caused by a TypeError
  if (error instanceof TRPCError && error.code === "BAD_REQUEST" && error.cause instanceof TypeError) {
    return { status: 400, body: { title: ERROR_MAP.BAD_REQUEST.title, detail: MSG.formUnreadableDetail } };
  }
  if (error instanceof TRPCError) {
    const code = TRPC_TO_CODE[error.code] ?? "INTERNAL";
    const m = ERROR_MAP[code];
    return { status: m.status, body: { title: m.title, detail: m.detail } };
  }
  const m = ERROR_MAP.INTERNAL;
  return { status: m.status, body: { title: m.title, detail: m.detail } };
}

/**
 * The messages of a refused input by top-level field (`z.flattenError`), so a form can show each under its
 * field; undefined for every other error. The `{title, detail}` answer stays as it is beside them.
 */
export function fieldErrorsOf(error: unknown): Record<string, string[]> | undefined {
  const zodError = findCause(error, ZodError);
  if (!zodError) {
    return undefined;
  }
  const fieldErrors: Record<string, string[]> = {};
  const flat = z.flattenError(zodError).fieldErrors as Record<string, string[] | undefined>;
  for (const [field, messages] of Object.entries(flat)) {
    if (messages?.length) {
      fieldErrors[field] = [...new Set(messages)];
    }
  }
  return Object.keys(fieldErrors).length > 0 ? fieldErrors : undefined;
}

function findCause<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    if (e instanceof type) {
      return e;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
