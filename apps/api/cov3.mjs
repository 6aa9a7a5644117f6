import fontkit from "@pdf-lib/fontkit";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const fonts = [require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"), require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"), "/tmp/fontprobe/sc/package/fonts/NotoSansHans-Regular.otf", "/tmp/fontprobe/kr/package/fonts/NotoSansKR-Regular.otf"].map(f => fontkit.create(readFileSync(f)));
const [reg, bold, sc, kr] = fonts;
const has = (f, c) => f.hasGlyphForCodePoint(c);
const scripts = ["Latin", "Greek", "Cyrillic", "Han", "Hiragana", "Katakana", "Hangul", "Inherited"];
for (const s of scripts) {
  const re = new RegExp(`^(?=[\\p{L}\\p{M}])\\p{Script=${s}}$`, "u");
  let total = 0, missReg = [], missBold = [];
  for (let c = 0; c <= 0x3ffff; c++) {
    const ch = String.fromCodePoint(c);
    if (!re.test(ch)) continue;
    total++;
    const okR = has(reg, c) || has(sc, c) || has(kr, c);
    const okB = has(bold, c) || has(sc, c) || has(kr, c);
    if (!okR) missReg.push(c);
    if (!okB) missBold.push(c);
  }
  const fmt = (a) => { const r = []; let s0 = null, p = null; for (const c of a) { if (p !== null && c === p + 1) { p = c; continue; } if (s0 !== null) r.push(s0 === p ? s0.toString(16) : `${s0.toString(16)}-${p.toString(16)}`); s0 = p = c; } if (s0 !== null) r.push(s0 === p ? s0.toString(16) : `${s0.toString(16)}-${p.toString(16)}`); return r.join(" "); };
  console.log(s, "total", total, "missing regular", missReg.length, "bold", missBold.length);
  console.log("  R:", fmt(missReg).slice(0, 1500));
  console.log("  B-only:", fmt(missBold.filter(c => !missReg.includes(c))).slice(0, 600));
}
