/**
 * Search-parameter validators for route options. Route options load with the route tree on every page, so
 * they use these few lines instead of zod (which the first page does not need).
 */
export function optionalString(value: unknown, maxLength = 2000): string | undefined {
  if (typeof value === "number") {
    return String(value);
  }
  return typeof value === "string" && value.length <= maxLength ? value : undefined;
}

/** One of `allowed`; undefined stays undefined, anything else becomes `fallback`. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T | undefined {
  if (value === undefined) {
    return undefined;
  }
  return allowed.includes(value as T) ? (value as T) : fallback;
}
