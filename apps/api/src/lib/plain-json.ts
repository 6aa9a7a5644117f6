/**
 * `T` when it is made of JSON's own types all the way down (strings, finite numbers, booleans, null,
 * arrays, plain objects) with no optional or undefined field; `never` in place of anything else (a Date,
 * a Map, a bigint, undefined), so `T extends PlainJson<T>` fails to compile.
 */
export type PlainJson<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer U)[]
    ? readonly PlainJson<U>[]
    : T extends Date | RegExp | Map<unknown, unknown> | Set<unknown> | ((...args: never[]) => unknown)
      ? never
      : T extends object
        ? { [K in keyof T]-?: undefined extends T[K] ? never : PlainJson<T[K]> }
        : never;

/**
 * `value` exactly as superjson serialises it, without superjson's walk: for plain JSON it writes
 * `{"json": value}` and no `meta`, so the web app's client (superjson as the tRPC transformer) reads it
 * as before. The type admits plain JSON only; numbers must be finite (superjson would mark NaN and
 * Infinity, JSON writes null), which the callers' data (ids, counts) is.
 */
export function plainSuperjson<T>(value: T & PlainJson<T>): string {
  return `{"json":${JSON.stringify(value)}}`;
}
