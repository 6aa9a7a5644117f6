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
