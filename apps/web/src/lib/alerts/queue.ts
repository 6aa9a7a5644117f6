import { ALERT_DURATION_MS, type DialogMode, type ErrorBody } from "@app/shared";

export interface AlertItem {
  id: number;
  mode: DialogMode;
  title?: string | undefined;
  text: string;
}

export interface DialogItem {
  id: number;
  mode: DialogMode;
  title: string;
  detail: string;
  confirmLabel?: string | undefined;
  cancelLabel?: string | undefined;
  resolve: (confirmed: boolean) => void;
}

export interface AlertState {
  /** newest first */
  alerts: AlertItem[];
  /** the dialog shown is the first; more wait behind it */
  dialogs: DialogItem[];
}

/**
 * The global alerts and dialogs of spec section 4, as a small store without React: alerts are queued
 * newest first and disappear after ALERT_DURATION_MS; dialogs wait for the visitor's answer.
 */
export function createAlertStore(options: { durationMs?: number } = {}) {
  const durationMs = options.durationMs ?? ALERT_DURATION_MS;
  let state: AlertState = { alerts: [], dialogs: [] };
  let nextId = 1;
  const listeners = new Set<() => void>();
  const emit = (next: AlertState) => {
    state = next;
    for (const listener of listeners) {
      listener();
    }
  };

  const dismiss = (id: number) => emit({ ...state, alerts: state.alerts.filter((a) => a.id !== id) });

  const push = (mode: DialogMode, text: string, title?: string) => {
    const id = nextId++;
    emit({ ...state, alerts: [{ id, mode, text, title }, ...state.alerts] });
    setTimeout(() => dismiss(id), durationMs);
    return id;
  };

  const openDialog = (item: Omit<DialogItem, "id" | "resolve">) =>
    new Promise<boolean>((resolve) => {
      emit({ ...state, dialogs: [...state.dialogs, { ...item, id: nextId++, resolve }] });
    });

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dismiss,
    normal: (text: string) => push("normal", text),
    success: (text: string) => push("success", text),
    info: (text: string, title?: string) => push("info", text, title),
    /** an error dialog with the server's title and detail */
    error: (error: ErrorBody) => openDialog({ mode: "error", title: error.title, detail: error.detail }),
    /** a success dialog that waits until it is closed */
    successDialog: (title: string, detail: string) => openDialog({ mode: "success", title, detail }),
    /** an info dialog that waits until it is closed */
    notice: (title: string, detail: string) => openDialog({ mode: "info", title, detail }),
    /** a question: resolves true when confirmed */
    confirm: (question: { title: string; detail: string; confirmLabel?: string; cancelLabel?: string }) =>
      openDialog({ mode: "question", ...question }),
    /** answers the current dialog and shows the next */
    answer(id: number, confirmed: boolean) {
      const dialog = state.dialogs.find((d) => d.id === id);
      emit({ ...state, dialogs: state.dialogs.filter((d) => d.id !== id) });
      dialog?.resolve(confirmed);
    },
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
