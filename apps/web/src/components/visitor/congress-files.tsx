import { MSG_ATTENDANCE } from "@app/shared";
import { useQueryClient } from "@tanstack/react-query";
import { CalendarPlusIcon, FileBadgeIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { showError } from "@/lib/alerts";
import { base64ToBytes, saveFile } from "@/lib/download";
import { trpc } from "@/lib/trpc";

/** Runs a download, busy meanwhile; a failure shows the error dialog. */
export function useDownload(fetchFile: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await fetchFile();
    } catch (error) {
      await showError(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, run: () => void run() };
}

/** The event's days as a calendar file (.ics); the webinar link is in it for participants only. */
export function CalendarButton({ congressId, title }: { congressId: number; title: string }) {
  const queryClient = useQueryClient();
  const { busy, run } = useDownload(async () => {
    const file = await queryClient.fetchQuery({
      ...trpc.congress.getCalendar.queryOptions({ congressId }),
      staleTime: 0,
    });
    saveFile(file.content, "text/calendar;charset=utf-8", file.fileName);
  });
  return (
    <Button variant="ghost" size="sm" onClick={run} disabled={busy}>
      <CalendarPlusIcon aria-hidden="true" className="size-4" />
      {MSG_ATTENDANCE.addToCalendar}
      <span className="sr-only">: {title}</span>
    </Button>
  );
}

/** The German attendance confirmation (PDF), made on the server. */
export function CertificateButton({ congressId, title }: { congressId: number; title: string }) {
  const queryClient = useQueryClient();
  const { busy, run } = useDownload(async () => {
    const file = await queryClient.fetchQuery({
      ...trpc.attendance.getCertificate.queryOptions({ congressId }),
      staleTime: 0,
    });
    saveFile(base64ToBytes(file.base64), "application/pdf", file.fileName);
  });
  return (
    <Button variant="ghost" size="sm" onClick={run} disabled={busy}>
      <FileBadgeIcon aria-hidden="true" className="size-4" />
      {busy ? "Wird erstellt …" : "Teilnahmebestätigung (PDF)"}
      <span className="sr-only">: {title}</span>
    </Button>
  );
}
