/** PostgreSQL error codes the services and the error mapping turn into German answers. */
function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
      return code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** 23503 foreign_key_violation, or 23001 restrict_violation (ON DELETE RESTRICT) */
export const foreignKeyViolation = (error: unknown) => ["23503", "23001"].includes(pgCode(error) ?? "");
export const uniqueViolation = (error: unknown) => pgCode(error) === "23505";
/**
 * SQLSTATE class 22 "data exception": a value the column cannot hold (a NUL character in text, an integer
 * beyond 2^31, an impossible date). Only input causes it, so the caller gets a 400, never a 500.
 */
export const dataException = (error: unknown) => pgCode(error)?.startsWith("22") ?? false;

/** 23514 check_violation of the named constraint */
export function checkViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    if ((e as { constraint?: unknown }).constraint === constraint) {
      return pgCode(e) === "23514";
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
