import { ALERT_DURATION_MS, type DialogMode, type ErrorBody } from "@app/shared";
import { type Countdown, createCountdown, type HoldReason } from "./countdown";

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

/** Only a question waits for its answer; every other message closes after its time (ADR 0086). */
export const waitsForAnswer = (mode: DialogMode) => mode === "question";

/**
 * The global alerts and dialogs of spec section 4, as a small store without React: alerts are queued
 * newest first, dialogs are shown one after another. Alerts and every dialog but a question display for
 * ALERT_DURATION_MS (spec section 9) from when they are shown, held while the visitor is busy with them
 * (`hold`/`release`); a dialog that closes by itself answers like its OK button.
 */
export function createAlertStore(options: { durationMs?: number } = {}) {
  const durationMs = options.durationMs ?? ALERT_DURATION_MS;
  let state: AlertState = { alerts: [], dialogs: [] };
  let nextId = 1;
  const listeners = new Set<() => void>();
  const countdowns = new Map<number, Countdown>();
  const emit = (next: AlertState) => {
    state = next;
    for (const listener of listeners) {
      listener();
    }
  };
  const endCountdown = (id: number) => {
    countdowns.get(id)?.cancel();
    countdowns.delete(id);
  };

  const dismiss = (id: number) => {
    endCountdown(id);
    emit({ ...state, alerts: state.alerts.filter((a) => a.id !== id) });
  };

  const push = (mode: DialogMode, text: string, title?: string) => {
    const id = nextId++;
    emit({ ...state, alerts: [{ id, mode, text, title }, ...state.alerts] });
    const countdown = createCountdown(durationMs, () => dismiss(id));
    countdowns.set(id, countdown);
    countdown.start();
    return id;
  };

  /** answers the dialog `id` and shows the next */
  const answer = (id: number, confirmed: boolean) => {
    endCountdown(id);
    const dialog = state.dialogs.find((d) => d.id === id);
    emit({ ...state, dialogs: state.dialogs.filter((d) => d.id !== id) });
    dialog?.resolve(confirmed);
  };

  const openDialog = (item: Omit<DialogItem, "id" | "resolve">) =>
    new Promise<boolean>((resolve) => {
      const id = nextId++;
      if (!waitsForAnswer(item.mode)) {
        countdowns.set(
          id,
          createCountdown(durationMs, () => answer(id, true)),
        );
      }
      emit({ ...state, dialogs: [...state.dialogs, { ...item, id, resolve }] });
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
    /** a success dialog; resolves when it closes */
    successDialog: (title: string, detail: string) => openDialog({ mode: "success", title, detail }),
    /** an info dialog; resolves when it closes */
    notice: (title: string, detail: string) => openDialog({ mode: "info", title, detail }),
    /** a question: resolves true when confirmed; it never closes by itself */
    confirm: (question: { title: string; detail: string; confirmLabel?: string; cancelLabel?: string }) =>
      openDialog({ mode: "question", ...question }),
    answer,
    /** the dialog `id` is on screen: its time starts */
    shown: (id: number) => countdowns.get(id)?.start(),
    /** the visitor is busy with the alert or dialog `id`: its time stands still */
    hold: (id: number, reason: HoldReason) => countdowns.get(id)?.hold(reason),
    release: (id: number, reason: HoldReason) => countdowns.get(id)?.release(reason),
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
