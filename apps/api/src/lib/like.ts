/** A LIKE pattern for "contains, any case" (compare with `lower(column)`); % _ and \ in the text match literally. */
export const containsPattern = (text: string) =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
