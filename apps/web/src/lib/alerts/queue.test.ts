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
});
