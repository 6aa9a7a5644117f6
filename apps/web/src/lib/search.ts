/**
 * Search-parameter validators for route options. Route options load with the route tree on every page, so
 * they use these few lines instead of zod (which the first page does not need): zod there costs 27.6 KB gzip
 * on every first page, zod/mini 9.6 KB (ADR 0095). A value that is not what the parameter holds is
 * dropped, so the page opens with the default instead of an error.
 */
export function optionalString(value: unknown, maxLength = 2000): string | undefined {
  if (typeof value === "number") {
    return String(value);
  }
  return typeof value === "string" && value.length <= maxLength ? value : undefined;
}

/** The page of a paged table: a whole number from 2 up to `max`; the first page and anything else is none. */
export function pageNumber(value: unknown, max = 100_000): number | undefined {
  const page = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : value;
  return typeof page === "number" && Number.isInteger(page) && page > 1 && page <= max ? page : undefined;
}

/** A filter's text, trimmed, up to `maxLength` characters; empty is no filter. */
export function filterText(value: unknown, maxLength: number): string | undefined {
  const text = optionalString(value, 10 * maxLength)?.trim();
  return text && text.length <= maxLength ? text : undefined;
}

/** A filter's choice (a name from a list, an id, a tag such as `admin:7`): a short token, else none. */
export function filterChoice(value: unknown): string | undefined {
  const text = optionalString(value, 100);
  return text !== undefined && /^[a-z0-9][a-z0-9.:_-]*$/i.test(text) ? text : undefined;
}

/** A calendar day `JJJJ-MM-TT` that exists (the browser's date field), else none. */
export function filterDay(value: unknown): string | undefined {
  const text = optionalString(value, 10);
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return undefined;
  }
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text) ? text : undefined;
}

/** What a section of /admin/manage keeps in its address: its filters (by name) and its page. */
export type SectionSearch<Filter extends string = never> = { page?: number | undefined } & {
  [name in Filter]?: string | undefined;
};

/** The search of a section without filters: its page. */
export const pageSearch = (search: Record<string, unknown>): SectionSearch => ({
  page: pageNumber(search.page),
});

/** The search of a section with one search field (`?search=`) and its page. */
export const searchAndPage =
  (maxLength: number, maxPage?: number) =>
  (search: Record<string, unknown>): SectionSearch<"search"> => ({
    search: filterText(search.search, maxLength),
    page: pageNumber(search.page, maxPage),
  });
