import { lazy, Suspense, useSyncExternalStore } from "react";
import { XIcon } from "@/components/layout/shell-icons";
import { alerts, holdWhileBusy } from "@/lib/alerts";
import { Alert } from "./ui/alert";

// the dialog (Radix, about 12 KB) loads with the first question or message, not with the first page
const AlertDialog = lazy(() => import("./alert-dialog").then((m) => ({ default: m.AlertDialog })));

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
            {...holdWhileBusy(alert.id)}
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
      {dialog && (
        <Suspense fallback={null}>
          <AlertDialog key={dialog.id} dialog={dialog} />
        </Suspense>
      )}
    </>
  );
}
