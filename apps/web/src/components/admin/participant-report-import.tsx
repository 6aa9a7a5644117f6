import {
  eventDays,
  formatGermanDate,
  formatGermanDateTime,
  type IsoDate,
  MSG_REPORT,
  REPORT_UPLOAD_FIELDS,
  type ReportPreview,
  reportFileProblem,
  UNMATCHED_REASONS,
} from "@app/shared";
import { useQueryClient } from "@tanstack/react-query";
import { FileUpIcon, LoaderCircleIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { StatusText } from "@/components/ui/status-text";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableMessage,
  TableRow,
} from "@/components/ui/table";
import { alerts, errorBody } from "@/lib/alerts";
import { trpc, trpcClient } from "@/lib/trpc";
import type { UploadContext } from "@/lib/upload-link";

/** The event a report is imported for (any record with these fields: the events table's rows, a section's). */
export interface ReportCongress {
  id: number;
  title: string;
  firstDay: IsoDate;
  lastDay: IsoDate | null;
}

type Step = "preview" | "import";

/** The report as the form data of both procedures, and the upload's progress (0..1) in the call's context. */
function reportForm(file: File, congressId: number, day: IsoDate, onProgress: (f: number) => void) {
  const form = new FormData();
  form.append(REPORT_UPLOAD_FIELDS.file, file);
  form.append(REPORT_UPLOAD_FIELDS.congressId, String(congressId));
  form.append(REPORT_UPLOAD_FIELDS.day, day);
  const context: UploadContext = { onUploadProgress: onProgress };
  return [form, { context: { ...context } }] as const;
}

const clock = (at: Date) => formatGermanDateTime(at).slice(-5);

/**
 * "Teilnehmerbericht importieren" for an event (ADR 0107): the button and its dialog. The admin picks
 * the day and the CSV of the webinar tool; the preview shows whom it credits (merged stretches, minutes,
 * what is new) and which rows match no account; "Übernehmen" asks once more, then stores it.
 */
export function ParticipantReportImport({ congress }: { congress: ReportCongress }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        aria-label={`Teilnehmerbericht für ${congress.title} importieren`}
        onClick={() => setOpen(true)}
      >
        <FileUpIcon aria-hidden="true" className="size-4" />
        Teilnehmerbericht
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && <ReportDialog congress={congress} onDone={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function ReportDialog({ congress, onDone }: { congress: ReportCongress; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const days = eventDays(congress.firstDay, congress.lastDay);
  const [day, setDay] = useState<IsoDate | "">(days.length === 1 ? (days[0] ?? "") : "");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<{ step: Step; progress: number } | null>(null);
  const [preview, setPreview] = useState<ReportPreview | null>(null);

  const run = async <T,>(step: Step, work: (onProgress: (f: number) => void) => Promise<T>) => {
    setBusy({ step, progress: 0 });
    try {
      return await work((progress) => setBusy({ step, progress }));
    } catch (error) {
      await alerts.error(errorBody(error));
      return undefined;
    } finally {
      setBusy(null);
    }
  };

  const showPreview = async () => {
    const found = !file
      ? MSG_REPORT.fileInvalid
      : day === ""
        ? MSG_REPORT.dayInvalid
        : reportFileProblem(file);
    setProblem(found);
    if (found || !file || day === "") {
      return;
    }
    setPreview(
      (await run("preview", (p) =>
        trpcClient.admin.webinarReports.preview.mutate(...reportForm(file, congress.id, day, p)),
      )) ?? null,
    );
  };

  const apply = async () => {
    if (!file || !preview) {
      return;
    }
    const minutes = preview.people.reduce((sum, p) => sum + p.newMinutes, 0);
    const confirmed = await alerts.confirm({
      title: "Teilnehmerbericht übernehmen?",
      detail: `${preview.people.length} ${preview.people.length === 1 ? "Person erhält" : "Personen erhalten"} für den ${formatGermanDate(preview.day)} zusammen ${minutes} Minuten neu angerechnet. Zeilen ohne Konto werden nicht übernommen.`,
      confirmLabel: "Übernehmen",
      cancelLabel: "Abbrechen",
    });
    if (!confirmed) {
      return;
    }
    const result = await run("import", (p) =>
      trpcClient.admin.webinarReports.import.mutate(...reportForm(file, congress.id, preview.day, p)),
    );
    if (result) {
      alerts.success(
        result.people === 0 ? MSG_REPORT.nothingChanged : MSG_REPORT.applied(result.people, result.minutes),
      );
      await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
      onDone();
    }
  };

  return (
    <DialogContent size="3xl" aria-describedby={`${id}-description`}>
      <DialogTitle>Teilnehmerbericht importieren</DialogTitle>
      <DialogDescription id={`${id}-description`}>
        {congress.title}: die Anwesenheit aus dem Webinar-Werkzeug (Zoom-Teilnehmerbericht auf Deutsch oder
        Englisch, oder eine Tabelle mit den Spalten E-Mail, Beginn, Ende) wird den Konten mit derselben
        E-Mail-Adresse als Anwesenheitszeit angerechnet. Zeiten gelten als deutsche Zeit.
      </DialogDescription>
      <div className="mt-4 grid gap-4 sm:grid-cols-[12rem_1fr]">
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${id}-day`}>Tag</Label>
          <Select
            id={`${id}-day`}
            value={day}
            placeholder={days.length === 1 ? null : "Bitte wählen …"}
            options={days.map((d) => ({ value: d, label: formatGermanDate(d) }))}
            onChange={(e) => {
              setDay(e.target.value);
              setPreview(null);
            }}
          />
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-sm font-medium text-slate-800">CSV-Datei</span>
          <div className="flex flex-wrap items-center gap-3">
            <label
              htmlFor={`${id}-file`}
              className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus-within:outline-2 focus-within:outline-brand-600"
            >
              Datei auswählen …
              <input
                id={`${id}-file`}
                type="file"
                accept=".csv,text/csv,.txt"
                className="sr-only"
                aria-label="CSV-Datei"
                aria-describedby={problem ? `${id}-hint ${id}-problem` : `${id}-hint`}
                aria-invalid={problem ? true : undefined}
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setPreview(null);
                  setProblem(null);
                }}
              />
            </label>
            <span className="break-all text-sm text-slate-700">
              {file ? file.name : "Keine Datei gewählt"}
            </span>
          </div>
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            Höchstens 5 MB; Komma oder Semikolon als Trennzeichen.
          </p>
        </div>
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      {busy && (
        <div className="mt-4 flex items-center gap-3" role="status">
          <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />
          <span className="text-sm">
            {busy.step === "preview" ? "Bericht wird gelesen …" : "Wird übernommen …"}
          </span>
          <progress value={busy.progress} max={1} aria-label="Hochladen" className="h-2 flex-1">
            {Math.round(busy.progress * 100)} %
          </progress>
        </div>
      )}
      {preview && !busy && <PreviewTables preview={preview} />}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onDone}>
          Abbrechen
        </Button>
        <Button type="button" variant="secondary" disabled={busy !== null} onClick={() => void showPreview()}>
          Vorschau anzeigen
        </Button>
        <Button
          type="button"
          disabled={busy !== null || !preview || preview.people.length === 0}
          onClick={() => void apply()}
        >
          Übernehmen
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}

function PreviewTables({ preview }: { preview: ReportPreview }) {
  const newMinutes = preview.people.reduce((sum, p) => sum + p.newMinutes, 0);
  return (
    <div className="mt-6 flex flex-col gap-6">
      <p role="status" className="text-sm text-slate-800">
        {preview.rows} Zeilen gelesen · {preview.people.length} Konten erkannt · {preview.unmatched.length}{" "}
        Zeilen ohne Konto · {newMinutes} Minuten neu
      </p>
      <section className="flex flex-col gap-2">
        <h3 className="font-semibold">Erkannte Konten</h3>
        <Table aria-label="Erkannte Konten">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>E-Mail</TableHead>
              <TableHead>Anwesend</TableHead>
              <TableHead className="text-right">Minuten</TableHead>
              <TableHead className="text-right">Neu</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.people.length === 0 && (
              <TableMessage colSpan={5}>Keine Zeile des Berichts gehört zu einem Konto.</TableMessage>
            )}
            {preview.people.map((p) => (
              <TableRow key={p.userId}>
                <TableCell>
                  {p.name}
                  {!p.registered && <span className="block text-xs text-slate-600">nicht angemeldet</span>}
                </TableCell>
                <TableCell className="min-w-48 break-all">{p.email}</TableCell>
                <TableCell className="min-w-40">
                  {p.intervals.map((i) => `${clock(i.from)}–${clock(i.to)}`).join(", ")}
                  {p.rows > 1 && (
                    <span className="block text-xs text-slate-600">{p.rows} Zeilen zusammengeführt</span>
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">{p.minutes}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {p.newMinutes === 0 ? (
                    <StatusText tone="neutral">bereits übernommen</StatusText>
                  ) : (
                    p.newMinutes
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
      {preview.unmatched.length > 0 && (
        <section className="flex flex-col gap-2">
          <h3 className="font-semibold">Ohne Konto (werden nicht übernommen)</h3>
          <Table aria-label="Zeilen ohne Konto">
            <TableHeader>
              <TableRow>
                <TableHead>Zeile</TableHead>
                <TableHead>Name</TableHead>
                <TableHead>E-Mail</TableHead>
                <TableHead>Grund</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.unmatched.map((u) => (
                <TableRow key={u.line}>
                  <TableCell className="tabular-nums">{u.line}</TableCell>
                  <TableCell>{u.name || "–"}</TableCell>
                  <TableCell className="min-w-48 break-all">{u.email || "–"}</TableCell>
                  <TableCell className="min-w-40">{UNMATCHED_REASONS[u.reason]}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </section>
      )}
    </div>
  );
}
