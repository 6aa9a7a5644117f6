import { MSG } from "@app/shared";
import { useEffect } from "react";
import { alerts, holdWhileBusy, waitsForAnswer } from "@/lib/alerts";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "./ui/dialog";

type QueuedDialog = ReturnType<typeof alerts.getState>["dialogs"][number];

/**
 * The current question or message of the alert host (see alert-host.tsx). A message closes after its time
 * (ADR 0086); it opens with the focus on the dialog itself, so that only the visitor's own move to its
 * buttons (or the pointer over it) holds it. A question opens on its first button and waits.
 */
export function AlertDialog({ dialog }: { dialog: QueuedDialog }) {
  const message = !waitsForAnswer(dialog.mode);
  useEffect(() => {
    alerts.shown(dialog.id);
  }, [dialog.id]);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) {
          alerts.answer(dialog.id, false);
        }
      }}
    >
      <DialogContent
        role={dialog.mode === "error" || dialog.mode === "question" ? "alertdialog" : "dialog"}
        data-mode={dialog.mode}
        className="outline-none"
        {...(message && {
          ...holdWhileBusy(dialog.id),
          onOpenAutoFocus: (event: Event) => {
            event.preventDefault();
            (event.currentTarget as HTMLElement).focus();
          },
        })}
      >
        <DialogTitle>
          {/* the tone colours the text inside: the title keeps its own colour class */}
          <span
            className={
              dialog.mode === "error"
                ? "text-red-800"
                : dialog.mode === "success"
                  ? "text-green-800"
                  : undefined
            }
          >
            {dialog.title}
          </span>
        </DialogTitle>
        <DialogDescription>{dialog.detail}</DialogDescription>
        <DialogFooter>
          {dialog.mode === "question" ? (
            <>
              <Button variant="secondary" onClick={() => alerts.answer(dialog.id, false)}>
                {dialog.cancelLabel ?? "Abbrechen"}
              </Button>
              <Button onClick={() => alerts.answer(dialog.id, true)}>
                {dialog.confirmLabel ?? MSG.deleteConfirmButton}
              </Button>
            </>
          ) : (
            <Button onClick={() => alerts.answer(dialog.id, true)}>OK</Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
