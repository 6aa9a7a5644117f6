import { toErrorBody } from "@app/shared";
import { DownloadIcon, LoaderCircleIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { alerts } from "@/lib/alerts";
import { session } from "@/lib/auth";

type ExportFormat = "csv" | "xlsx";

const FORMAT_LABELS: Record<ExportFormat, string> = { csv: "CSV", xlsx: "Excel" };

/** The file name the server chose (`attachment; filename="…"`), or a fallback. */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get("content-disposition") ?? "";
  return /filename="([^"]+)"/.exec(header)?.[1] ?? fallback;
}

/**
 * Downloads an export with the in-memory access token (a plain link could not send it) and hands the
 * file to the browser. Resolves once the file is saved; failures show the server's `{title, detail}`.
 */
async function downloadExport(url: string, fallbackName: string): Promise<void> {
  const token = await session.getToken();
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => ({}));
    throw toErrorBody(body);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = fileNameOf(response, fallbackName);
  link.click();
  URL.revokeObjectURL(href);
}

/**
 * "CSV" and "Excel" buttons for an admin export. `path` is the export without its extension (e.g.
 * `/api/admin/exports/package-orders`), `query` the table's current filter; `what` names the data for
 * screen readers ("Paketbestellungen").
 */
export function ExportButtons({
  path,
  query = {},
  what,
  formats = ["csv", "xlsx"],
  caption,
}: {
  path: string;
  query?: Record<string, string>;
  what: string;
  /** the formats offered (default: both) */
  formats?: ExportFormat[];
  /** a visible word before the buttons, where several groups stand side by side */
  caption?: string;
}) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const start = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const params = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ""));
      const search = params.size > 0 ? `?${params}` : "";
      await downloadExport(`${path}.${format}${search}`, `export.${format}`);
    } catch (error) {
      // the server's {title, detail}; a broken connection gets the default texts
      await alerts.error(toErrorBody(error));
    } finally {
      setBusy(null);
    }
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two buttons, not a form's fieldset
    <div role="group" aria-label={`${what} exportieren`} className="flex items-center gap-2">
      {caption && (
        <span aria-hidden="true" className="text-sm text-slate-700">
          {caption}
        </span>
      )}
      {formats.map((format) => (
        <Button
          key={format}
          type="button"
          variant="secondary"
          size="sm"
          disabled={busy !== null}
          aria-busy={busy === format}
          aria-label={`${what} als ${FORMAT_LABELS[format]} herunterladen`}
          onClick={() => void start(format)}
        >
          {busy === format ? (
            <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <DownloadIcon aria-hidden="true" className="size-4" />
          )}
          {busy === format ? `${FORMAT_LABELS[format]} wird erstellt …` : FORMAT_LABELS[format]}
        </Button>
      ))}
    </div>
  );
}
