/** PostgreSQL error codes the admin services turn into German answers. */
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

export const foreignKeyViolation = (error: unknown) => pgCode(error) === "23503";
export const uniqueViolation = (error: unknown) => pgCode(error) === "23505";
