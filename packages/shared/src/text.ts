/** Cuts a description at `max` characters (the overview's more/less toggle shows the rest). */
export function cutText(text: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(text);
  if (chars.length <= max) {
    return { text, cut: false };
  }
  return { text: `${chars.slice(0, max).join("").trimEnd()}…`, cut: true };
}
