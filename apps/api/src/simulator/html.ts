import type { IncomingMessage } from "node:http";

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#0f172a}
.note{background:#fef3c7;padding:.75rem 1rem;border-radius:.5rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;word-break:break-all}button{font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #334155;cursor:pointer}
.pay{background:#1e3a8a;color:#fff;border-color:#1e3a8a}.actions{display:flex;gap:.75rem;margin-top:1.5rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #cbd5e1;padding:.4rem;text-align:left}
td form{display:inline-block;margin-right:.25rem}ol.sent{padding-left:1.5rem}ol.sent li{margin:.5rem 0}ol.sent form{display:inline-block;margin-left:.5rem}</style>
</head><body><p class="note">Testkasse für Entwicklung und Tests. Es wird nichts bezahlt.</p>${body}</body></html>`;
}

export const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");

export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  // decoded once at the end, so a multi-byte character split across chunks stays whole
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > 100_000) {
      break;
    }
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}
