import type { IsoDate } from "@app/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OverviewCache } from "./overview-cache";

const DAY = "2026-11-24" as IsoDate;
const NEXT_DAY = "2026-11-25" as IsoDate;

function liveCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const cache = new OverviewCache({ ttlMs: options.ttlMs ?? 60_000, maxEntries: options.maxEntries ?? 100 });
  cache.setLive(true);
  return cache;
}

/** A computation that finishes only when told to, to let changes happen while it runs. */
function deferred(answer: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { compute: () => done.then(() => answer), finish };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("OverviewCache", () => {
  it("keeps a computed answer per visitor and day", async () => {
    const cache = liveCache();
    expect(await cache.fill(1, DAY, async () => "eins")).toBe("eins");
    await cache.fill(2, DAY, async () => "zwei");
    expect(cache.get(1, DAY)).toBe("eins");
    expect(cache.get(2, DAY)).toBe("zwei");
    expect(cache.get(3, DAY)).toBeUndefined();
    // a new day in Berlin starts without the answers of yesterday
    expect(cache.get(1, NEXT_DAY)).toBeUndefined();
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("keeps nothing while changes are not heard, and forgets everything when that starts or stops", async () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100 });
    expect(cache.live).toBe(false);
    expect(await cache.fill(1, DAY, async () => "eins")).toBe("eins");
    expect(cache.get(1, DAY)).toBeUndefined();

    cache.setLive(true);
    await cache.fill(1, DAY, async () => "eins");
    expect(cache.get(1, DAY)).toBe("eins");
    cache.setLive(false);
    expect(cache.get(1, DAY)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("is never live when switched off (no time or no entries)", () => {
    for (const options of [
      { ttlMs: 0, maxEntries: 100 },
      { ttlMs: 1000, maxEntries: 0 },
    ]) {
      const cache = new OverviewCache(options);
      cache.setLive(true);
      expect(cache.enabled).toBe(false);
      expect(cache.live).toBe(false);
    }
  });

  it("does not keep an answer whose data was read ahead before a change of its visitor was heard", async () => {
    const cache = liveCache();
    // opened before the read ahead (the session check's statement), the change heard before the fill starts
    const opened = cache.open(1);
    cache.applyNotification("1");
    expect(await cache.fill(1, DAY, async () => "alt", opened)).toBe("alt");
    expect(cache.get(1, DAY)).toBeUndefined();
    cache.close(opened);

    // a change of somebody else, or none, keeps it
    const other = cache.open(1);
    cache.applyNotification("2");
    await cache.fill(1, DAY, async () => "neu", other);
    cache.close(other);
    expect(cache.get(1, DAY)).toBe("neu");
  });

  it("does not keep a read-ahead answer opened while changes were not heard, nor one of another visitor", async () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100 });
    const opened = cache.open(1);
    cache.setLive(true);
    await cache.fill(1, DAY, async () => "alt", opened);
    expect(cache.get(1, DAY)).toBeUndefined();
    cache.close(opened);

    // a fill opened for visitor 2 says nothing about changes of visitor 1 since
    const ofTwo = cache.open(2);
    const run = deferred("eins");
    const filling = cache.fill(1, DAY, run.compute, ofTwo);
    cache.applyNotification("1");
    run.finish();
    await filling;
    cache.close(ofTwo);
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("drops the named visitors only, and everybody on '*' or a payload it cannot read", async () => {
    let droppedAll = 0;
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100, onDropAll: () => droppedAll++ });
    cache.setLive(true);
    droppedAll = 0;
    for (const id of [1, 2, 3]) {
      await cache.fill(id, DAY, async () => `v${id}`);
    }
    cache.applyNotification("1,3");
    expect([cache.get(1, DAY), cache.get(2, DAY), cache.get(3, DAY)]).toEqual([undefined, "v2", undefined]);
    expect(droppedAll).toBe(0);

    cache.applyNotification("*");
    expect(cache.size).toBe(0);
    expect(droppedAll).toBe(1);

    await cache.fill(2, DAY, async () => "v2");
    cache.applyNotification("2,kaputt");
    expect(cache.size).toBe(0);
    expect(droppedAll).toBe(2);
    await cache.fill(2, DAY, async () => "v2");
    cache.applyNotification(undefined);
    expect(cache.size).toBe(0);
    expect(droppedAll).toBe(3);
  });

  it("does not keep an answer computed while its visitor changed (it may hold the old state)", async () => {
    const cache = liveCache();
    const first = deferred("alt");
    const filling = cache.fill(1, DAY, first.compute);
    cache.drop([1]);
    first.finish();
    expect(await filling).toBe("alt");
    expect(cache.get(1, DAY)).toBeUndefined();

    // a change of somebody else does not matter; a change of everybody does
    const second = deferred("neu");
    const other = cache.fill(1, DAY, second.compute);
    cache.drop([2]);
    second.finish();
    await other;
    expect(cache.get(1, DAY)).toBe("neu");

    const third = deferred("neuer");
    const all = cache.fill(1, DAY, third.compute);
    cache.dropAll();
    third.finish();
    await all;
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("does not keep an answer computed while the connection was lost and found again", async () => {
    const cache = liveCache();
    const slow = deferred("verpasst");
    const filling = cache.fill(1, DAY, slow.compute);
    cache.setLive(false);
    cache.setLive(true);
    slow.finish();
    await filling;
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("forgets a failed computation without keeping anything", async () => {
    const cache = liveCache();
    await expect(
      cache.fill(1, DAY, async () => {
        throw new Error("Datenbank weg");
      }),
    ).rejects.toThrow("Datenbank weg");
    expect(cache.get(1, DAY)).toBeUndefined();
    await cache.fill(1, DAY, async () => "wieder da");
    expect(cache.get(1, DAY)).toBe("wieder da");
  });

  it("lets answers expire after the time limit", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const cache = liveCache({ ttlMs: 1000 });
    await cache.fill(1, DAY, async () => "eins");
    vi.advanceTimersByTime(999);
    expect(cache.get(1, DAY)).toBe("eins");
    vi.advanceTimersByTime(1);
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("keeps at most maxEntries answers, the oldest go first", async () => {
    const cache = liveCache({ maxEntries: 2 });
    await cache.fill(1, DAY, async () => "eins");
    await cache.fill(2, DAY, async () => "zwei");
    await cache.fill(1, DAY, async () => "eins, neu");
    await cache.fill(3, DAY, async () => "drei");
    expect(cache.size).toBe(2);
    expect(cache.get(2, DAY)).toBeUndefined();
    expect(cache.get(1, DAY)).toBe("eins, neu");
    expect(cache.get(3, DAY)).toBe("drei");
  });
});
