const graphemes = new Intl.Segmenter("de", { granularity: "grapheme" });

/** What a reader sees as one character: a letter with its accents, a syllable block, an emoji. */
export const splitGraphemes = (text: string): string[] =>
  Array.from(graphemes.segment(text), (s) => s.segment);

/**
 * The lines of `text` at most `width` wide (`measure` tells a text's width): paragraphs at "\n", words
 * at spaces. A word wider than a line is broken after its hyphens, and a piece still too wide between
 * any two characters (a long name, a CJK title without spaces), so nothing runs past the column.
 */
export function wrap(text: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) {
        lines.push(line);
      }
      const pieces = breakWord(word, width, measure);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? "";
    }
    if (line) {
      lines.push(line);
    }
  }
  return lines;
}

/** A word in pieces that each fit `width`: after hyphens first, else between characters. */
function breakWord(word: string, width: number, measure: (text: string) => number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const part of word.split(/(?<=-)/)) {
    if (measure(piece + part) <= width) {
      piece += part;
      continue;
    }
    if (piece) {
      pieces.push(piece);
      piece = "";
    }
    if (measure(part) <= width) {
      piece = part;
      continue;
    }
    for (const character of splitGraphemes(part)) {
      if (piece && measure(piece + character) > width) {
        pieces.push(piece);
        piece = "";
      }
      piece += character;
    }
  }
  pieces.push(piece);
  return pieces;
}
