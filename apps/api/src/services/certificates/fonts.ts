import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fontkit, { type Font } from "@pdf-lib/fontkit";
import type { Color, PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import subsetFont from "subset-font";
import { splitGraphemes } from "./wrap";

/**
 * The fonts of the certificate and the attendance confirmation (ADR 0115 and ADR 0128):
 * DejaVu Sans first (Latin with Vietnamese, Greek, Cyrillic), then Noto Sans Hans (Noto Sans CJK's
 * Simplified Chinese cut: the CJK ideographs up to U+9FD0 and extension A, kana) and Noto Sans KR (Hangul),
 * npm @embedpdf/fonts-sc and -kr (SIL OFL), for what DejaVu lacks, chosen per character. Each document embeds
 * only the glyphs it shows: DejaVu through pdf-lib's subsetting; the CJK fonts (CID-keyed CFF, which
 * pdf-lib's own subsetting breaks) cut by HarfBuzz (`subset-font`) to the document's characters first.
 */

export type Weight = "regular" | "bold";

// resolved from this module (src/ under tsx, dist/ in the bundle): both find apps/api/node_modules
const require = createRequire(import.meta.url);
const dejavu = (file: string) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
/** the @embedpdf packages export only their index; the font files lie in fonts/ beside its dist/ */
const embedpdf = (pkg: string, file: string) => join(dirname(require.resolve(pkg)), "..", "fonts", file);

/** Per weight, the fonts in the order a character looks for its glyph. */
const CHAINS: Record<Weight, () => string[]> = {
  regular: () => [
    dejavu("DejaVuSans.ttf"),
    embedpdf("@embedpdf/fonts-sc", "NotoSansHans-Regular.otf"),
    embedpdf("@embedpdf/fonts-kr", "NotoSansKR-Regular.otf"),
  ],
  bold: () => [
    dejavu("DejaVuSans-Bold.ttf"),
    embedpdf("@embedpdf/fonts-sc", "NotoSansHans-Bold.otf"),
    embedpdf("@embedpdf/fonts-kr", "NotoSansKR-Bold.otf"),
  ],
};

interface Face {
  bytes: Uint8Array;
  font: Font;
}

const loadFace = async (file: string): Promise<Face> => {
  const bytes = new Uint8Array(await readFile(file));
  return { bytes, font: fontkit.create(bytes) };
};

let loaded: Promise<Record<Weight, Face[]>> | undefined;

/** Every face, read once per process (the CJK fonts are some 26 MB together). */
export function fontChains(): Promise<Record<Weight, Face[]>> {
  loaded ??= (async () => ({
    regular: await Promise.all(CHAINS.regular().map(loadFace)),
    bold: await Promise.all(CHAINS.bold().map(loadFace)),
  }))();
  return loaded;
}

/** A piece of text set in one face of a chain. */
interface Run {
  text: string;
  face: number;
}

interface Pending {
  page: PDFPage;
  weight: Weight;
  runs: Run[];
  x: number;
  y: number;
  size: number;
  color: Color;
}

/**
 * The text of one document: measured and placed while the page is laid out, drawn by `finish` once every
 * character is known, so each CJK font is cut once to exactly what the document shows.
 */
export class DocumentText {
  private readonly pending: Pending[] = [];

  private constructor(private readonly chains: Record<Weight, Face[]>) {}

  static async create(): Promise<DocumentText> {
    return new DocumentText(await fontChains());
  }

  /** `text` as runs of one face each: per character the first face of the chain that has its glyphs. */
  private runs(text: string, weight: Weight): Run[] {
    const chain = this.chains[weight];
    const runs: Run[] = [];
    for (const character of splitGraphemes(text)) {
      const codePoints = Array.from(character, (c) => c.codePointAt(0) ?? 0);
      const found = chain.findIndex((face) => codePoints.every((c) => face.font.hasGlyphForCodePoint(c)));
      // nowhere (an emoji in a title): DejaVu's empty box rather than nothing
      const face = Math.max(found, 0);
      const last = runs.at(-1);
      if (last?.face === face) {
        last.text += character;
      } else {
        runs.push({ text: character, face });
      }
    }
    return runs;
  }

  private runWidth(run: Run, weight: Weight, size: number): number {
    const { font } = this.chains[weight][run.face] as Face;
    const units = font.layout(run.text).glyphs.reduce((sum, glyph) => sum + glyph.advanceWidth, 0);
    return (units * size) / font.unitsPerEm;
  }

  /** The width of `text` at `size` points, as `draw` will set it. */
  width(text: string, weight: Weight, size: number): number {
    return this.runs(text, weight).reduce((sum, run) => sum + this.runWidth(run, weight, size), 0);
  }

  /** Sets `text` on one line from (x, y); drawn by `finish`. */
  draw(
    page: PDFPage,
    text: string,
    options: { x: number; y: number; size: number; weight: Weight; color: Color },
  ) {
    this.pending.push({ page, runs: this.runs(text, options.weight), ...options });
  }

  /** Embeds the faces the document uses (each cut to its characters) and draws every line. */
  async finish(pdf: PDFDocument): Promise<void> {
    const used = new Map<string, { face: Face; text: Set<string> }>();
    for (const line of this.pending) {
      for (const run of line.runs) {
        const key = `${line.weight}:${run.face}`;
        const entry = used.get(key) ?? { face: this.chains[line.weight][run.face] as Face, text: new Set() };
        for (const character of run.text) {
          entry.text.add(character);
        }
        used.set(key, entry);
      }
    }
    const embedded = new Map<string, PDFFont>();
    for (const [key, { face, text }] of used) {
      embedded.set(
        key,
        key.endsWith(":0")
          ? await pdf.embedFont(face.bytes, { subset: true })
          : await pdf.embedFont(
              await subsetFont(Buffer.from(face.bytes), [...text].join(""), { targetFormat: "sfnt" }),
            ),
      );
    }
    for (const line of this.pending) {
      let x = line.x;
      for (const run of line.runs) {
        const font = embedded.get(`${line.weight}:${run.face}`) as PDFFont;
        line.page.drawText(run.text, { x, y: line.y, size: line.size, font, color: line.color });
        x += this.runWidth(run, line.weight, line.size);
      }
    }
  }
}
