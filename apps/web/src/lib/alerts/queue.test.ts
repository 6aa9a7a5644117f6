import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAlertStore } from "./queue";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("alert store", () => {
  it("queues alerts newest first and removes each after 5000 ms", () => {
    const store = createAlertStore();
    store.success("eins");
    vi.advanceTimersByTime(1000);
    store.info("zwei");
    expect(store.getState().alerts.map((a) => a.text)).toEqual(["zwei", "eins"]);
    expect(store.getState().alerts.map((a) => a.mode)).toEqual(["info", "success"]);

    vi.advanceTimersByTime(3999);
    expect(store.getState().alerts).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(store.getState().alerts.map((a) => a.text)).toEqual(["zwei"]);
    vi.advanceTimersByTime(1000);
    expect(store.getState().alerts).toEqual([]);
  });

  it("can be dismissed early and notifies subscribers", () => {
    const store = createAlertStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.normal("weg");
    store.dismiss(id);
    expect(store.getState().alerts).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("resolves a question with the visitor's answer and shows dialogs one after another", async () => {
    const store = createAlertStore();
    const first = store.confirm({
      title: "Sind Sie sich sicher?",
      detail: "x",
      confirmLabel: "Ja, ich bin mir sicher",
    });
    const second = store.error({ title: "Fehler", detail: "y" });
    const [current, waiting] = store.getState().dialogs;
    expect(current?.mode).toBe("question");
    expect(waiting?.mode).toBe("error");

    store.answer(current?.id ?? 0, true);
    expect(await first).toBe(true);
    expect(store.getState().dialogs.map((d) => d.title)).toEqual(["Fehler"]);
    store.answer(waiting?.id ?? 0, false);
    expect(await second).toBe(false);
    expect(store.getState().dialogs).toEqual([]);
  });

  it("closes an error, success or info dialog 5000 ms after it is shown, answering like OK", async () => {
    const store = createAlertStore();
    const error = store.error({ title: "Fehler", detail: "x" });
    const success = store.successDialog("Passwort geändert", "y");
    const info = store.notice("Hinweis", "z");
    // the dialog behind the first one keeps its time until it is shown
    vi.advanceTimersByTime(20_000);
    expect(store.getState().dialogs).toHaveLength(3);

    for (const [shown, title] of [
      [error, "Fehler"],
      [success, "Passwort geändert"],
      [info, "Hinweis"],
    ] as const) {
      const current = store.getState().dialogs[0];
      expect(current?.title).toBe(title);
      store.shown(current?.id ?? 0);
      vi.advanceTimersByTime(4999);
      expect(store.getState().dialogs[0]?.id).toBe(current?.id);
      vi.advanceTimersByTime(1);
      expect(await shown).toBe(true);
    }
    expect(store.getState().dialogs).toEqual([]);
  });

  it("keeps a dialog while the visitor is busy with it, and a question until it is answered", async () => {
    const store = createAlertStore();
    const error = store.error({ title: "Fehler", detail: "x" });
    const [dialog] = store.getState().dialogs;
    store.shown(dialog?.id ?? 0);
    store.hold(dialog?.id ?? 0, "focus");
    vi.advanceTimersByTime(60_000);
    expect(store.getState().dialogs).toHaveLength(1);
    store.release(dialog?.id ?? 0, "focus");
    vi.advanceTimersByTime(5000);
    expect(await error).toBe(true);

    const question = store.confirm({ title: "Sind Sie sich sicher?", detail: "y" });
    const [asked] = store.getState().dialogs;
    store.shown(asked?.id ?? 0);
    vi.advanceTimersByTime(600_000);
    expect(store.getState().dialogs.map((d) => d.mode)).toEqual(["question"]);
    store.answer(asked?.id ?? 0, false);
    expect(await question).toBe(false);
  });

  it("keeps an alert while it is held and removes it 5000 ms after it was let go", () => {
    const store = createAlertStore();
    const id = store.success("Gespeichert");
    vi.advanceTimersByTime(3000);
    store.hold(id, "pointer");
    vi.advanceTimersByTime(60_000);
    expect(store.getState().alerts).toHaveLength(1);
    store.release(id, "pointer");
    vi.advanceTimersByTime(1999);
    expect(store.getState().alerts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().alerts).toEqual([]);
  });

  it("a dialog answered before its time is not answered again", async () => {
    const store = createAlertStore();
    const error = store.error({ title: "Fehler", detail: "x" });
    const [dialog] = store.getState().dialogs;
    store.shown(dialog?.id ?? 0);
    const next = store.notice("Weiter", "y");
    store.answer(dialog?.id ?? 0, false);
    expect(await error).toBe(false);
    // the earlier dialog's time must not close the next one
    vi.advanceTimersByTime(5000);
    expect(store.getState().dialogs.map((d) => d.title)).toEqual(["Weiter"]);
    store.shown(store.getState().dialogs[0]?.id ?? 0);
    vi.advanceTimersByTime(5000);
    expect(await next).toBe(true);
  });
});
