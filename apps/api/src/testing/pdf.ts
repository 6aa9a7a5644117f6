import jsQR from "jsqr";
import { extractImages, extractText, getDocumentProxy, getResolvedPDFJS } from "unpdf";

// pdf.js decodes images with ArrayBuffer.prototype.transferToFixedLength (Node 21+); CI also runs Node 20
const buffers = ArrayBuffer.prototype as ArrayBuffer & {
  transferToFixedLength?: (length?: number) => ArrayBuffer;
};
buffers.transferToFixedLength ??= function (this: ArrayBuffer, length?: number) {
  const copy = new ArrayBuffer(length ?? this.byteLength);
  new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(copy.byteLength, this.byteLength)));
  return copy;
};

/** The text of a PDF's pages as a reader's program extracts it (pdf.js through unpdf), one string. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/** The first page's pieces of text with where they start and how wide they are (points from the left). */
export async function pdfTextItems(
  bytes: Uint8Array,
): Promise<{ text: string; x: number; y: number; width: number }[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const content = await (await pdf.getPage(1)).getTextContent();
  return content.items.flatMap((item) =>
    "str" in item && item.str.trim() !== ""
      ? [
          {
            text: item.str,
            x: item.transform[4] as number,
            y: item.transform[5] as number,
            width: item.width,
          },
        ]
      : [],
  );
}

/** Every QR code among the images of the PDF's first page, decoded (jsQR on the raw pixels). */
export async function pdfQrCodes(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const found: string[] = [];
  for (const image of await extractImages(pdf, 1)) {
    const rgba = new Uint8ClampedArray(image.width * image.height * 4);
    for (let i = 0; i < image.width * image.height; i++) {
      for (let c = 0; c < 3; c++) {
        rgba[i * 4 + c] = image.data[i * image.channels + (image.channels >= 3 ? c : 0)] ?? 0;
      }
      rgba[i * 4 + 3] = 255;
    }
    const code = jsQR(rgba, image.width, image.height);
    if (code) {
      found.push(code.data);
    }
  }
  return found;
}

/** The first page's size and every glyph it shows, by code: for our fonts (Identity-H) the glyph id, 0 is .notdef. */
export async function pdfGlyphs(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; glyphs: { code: number; unicode: string }[] }> {
  const { OPS } = await getResolvedPDFJS();
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const page = await pdf.getPage(1);
  const [, , width = 0, height = 0] = page.view;
  const { fnArray, argsArray } = await page.getOperatorList();
  const glyphs: { code: number; unicode: string }[] = [];
  fnArray.forEach((fn, i) => {
    if (fn === OPS.showText) {
      for (const glyph of (argsArray[i] as [unknown[]])[0]) {
        if (glyph && typeof glyph === "object" && "originalCharCode" in glyph) {
          const { originalCharCode, unicode } = glyph as { originalCharCode: number; unicode: string };
          glyphs.push({ code: originalCharCode, unicode });
        }
      }
    }
  });
  return { width, height, glyphs };
}
