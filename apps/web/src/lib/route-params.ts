import { MAX_ID } from "@app/shared";
import { notFound } from "@tanstack/react-router";

/** digits only, no sign, no leading zero: "7" is an id; "07", "+7", "7.0", "1e3" and "abc" are not */
const DIGITS = /^[1-9][0-9]{0,9}$/;

/** The id in a path segment, or undefined when the segment is not a positive integer the database can hold. */
export function parseId(value: string | undefined): number | undefined {
  if (value === undefined || !DIGITS.test(value)) {
    return undefined;
  }
  const id = Number(value);
  return id <= MAX_ID ? id : undefined;
}

/**
 * `params` for a route whose path holds one id (`/congress/$congressId`): the route and its loader get a
 * number, and an address whose id is not a positive integer is a page that does not exist (the not-found
 * page, without asking the server).
 */
export function idParams<const K extends string>(key: K) {
  return {
    parse: (raw: Record<K, string>): Record<K, number> => {
      const id = parseId(raw[key]);
      if (id === undefined) {
        throw notFound();
      }
      return { [key]: id } as Record<K, number>;
    },
    stringify: (params: Record<K, number>): Record<K, string> =>
      ({ [key]: String(params[key]) }) as Record<K, string>,
  };
}
