/** Cuts a description at `max` characters (the overview's more/less toggle shows the rest). */
export function cutText(text: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(text);
  if (chars.length <= max) {
    return { text, cut: false };
  }
  return { text: `${chars.slice(0, max).join("").trimEnd()}…`, cut: true };
}

/** "1 Video", "3 Videos", "0 Videos": a count with the singular or the plural of what it counts. */
export const countOf = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const de = new Intl.NumberFormat("de-DE");

/** "Der Titel darf höchstens 300 Zeichen lang sein." */
export const tooLong = (the: string, max: number) =>
  `${the} darf höchstens ${de.format(max)} Zeichen lang sein.`;

/** A table's search field (and the server's answer to it): "Der Suchbegriff darf höchstens 200 Zeichen lang sein." */
export const searchTooLong = (max: number) => tooLong("Der Suchbegriff", max);
