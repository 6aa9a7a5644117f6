import { MSG } from "@app/shared";
import { XIcon } from "lucide-react";
import { useSyncExternalStore } from "react";
import { alerts } from "@/lib/alerts";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "./ui/dialog";

/** Renders the queued alerts (newest first, announced politely) and the current dialog. */
export function AlertHost() {
  const state = useSyncExternalStore(alerts.subscribe, alerts.getState);
  const dialog = state.dialogs[0];
  return (
    <>
      <section
        aria-label="Benachrichtigungen"
        aria-live="polite"
        className="pointer-events-none fixed right-4 top-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
      >
        {state.alerts.map((alert) => (
          <Alert
            key={alert.id}
            mode={alert.mode}
            role="status"
            className="pointer-events-auto flex items-start gap-2 shadow"
          >
            <div className="flex-1">
              {alert.title && <p className="font-semibold">{alert.title}</p>}
              <p>{alert.text}</p>
            </div>
            <button
              type="button"
              onClick={() => alerts.dismiss(alert.id)}
              className="rounded p-0.5 hover:bg-black/5"
              aria-label="Hinweis schließen"
            >
              <XIcon aria-hidden="true" className="size-4" />
            </button>
          </Alert>
        ))}
      </section>
      <Dialog
        open={dialog !== undefined}
        onOpenChange={(open) => {
          if (!open && dialog) {
            alerts.answer(dialog.id, false);
          }
        }}
      >
        {dialog && (
          <DialogContent
            role={dialog.mode === "error" || dialog.mode === "question" ? "alertdialog" : "dialog"}
          >
            <DialogTitle
              className={
                dialog.mode === "error"
                  ? "text-red-800"
                  : dialog.mode === "success"
                    ? "text-green-800"
                    : undefined
              }
            >
              {dialog.title}
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
        )}
      </Dialog>
    </>
  );
}
