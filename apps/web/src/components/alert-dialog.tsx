import { MSG } from "@app/shared";
import { alerts } from "@/lib/alerts";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "./ui/dialog";

type QueuedDialog = ReturnType<typeof alerts.getState>["dialogs"][number];

/** The current question or message of the alert host (see alert-host.tsx). */
export function AlertDialog({ dialog }: { dialog: QueuedDialog }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) {
          alerts.answer(dialog.id, false);
        }
      }}
    >
      <DialogContent role={dialog.mode === "error" || dialog.mode === "question" ? "alertdialog" : "dialog"}>
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
