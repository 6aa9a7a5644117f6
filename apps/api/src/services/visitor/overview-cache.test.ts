import type { IsoDate } from "@app/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Overview } from "./overview";
import { OverviewCache } from "./overview-cache";

const DAY = "2026-11-24" as IsoDate;
const NEXT_DAY = "2026-11-25" as IsoDate;

function liveCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const cache = new OverviewCache({ ttlMs: options.ttlMs ?? 60_000, maxEntries: options.maxEntries ?? 100 });
  cache.setLive(true);
  return cache;
}

/** A computation that finishes only when told to, to let changes happen while it runs. */
function deferred(name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { compute: () => done.then(() => answer(name)), finish };
}

/** An overview told apart by the visitor's first name. */
const answer = (firstname: string): Overview => ({
  user: { firstname, lastname: "Muster" },
  congresses: [],
  packages: [],
  attended: [],
});

afterEach(() => {
  vi.useRealTimers();
});

describe("OverviewCache", () => {
  it("keeps a computed answer per visitor and day", async () => {
    const cache = liveCache();
    expect(await cache.fill(1, DAY, async () => answer("eins"))).toEqual(answer("eins"));
    await cache.fill(2, DAY, async () => answer("zwei"));
    expect(cache.get(1, DAY)).toEqual(answer("eins"));
    expect(cache.get(2, DAY)).toEqual(answer("zwei"));
    expect(cache.get(3, DAY)).toBeUndefined();
    // a new day in Berlin starts without the answers of yesterday
    expect(cache.get(1, NEXT_DAY)).toBeUndefined();
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("keeps nothing while changes are not heard, and forgets everything when that starts or stops", async () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100 });
    expect(cache.live).toBe(false);
    expect(await cache.fill(1, DAY, async () => answer("eins"))).toEqual(answer("eins"));
    expect(cache.get(1, DAY)).toBeUndefined();

    cache.setLive(true);
    await cache.fill(1, DAY, async () => answer("eins"));
    expect(cache.get(1, DAY)).toEqual(answer("eins"));
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

  it("drops the named visitors only, and everybody on '*' or a payload it cannot read", async () => {
    let droppedAll = 0;
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100, onDropAll: () => droppedAll++ });
    cache.setLive(true);
    droppedAll = 0;
    for (const id of [1, 2, 3]) {
      await cache.fill(id, DAY, async () => answer(`v${id}`));
    }
    cache.applyNotification("1,3");
    expect([cache.get(1, DAY), cache.get(2, DAY), cache.get(3, DAY)]).toEqual([
      undefined,
      answer("v2"),
      undefined,
    ]);
    expect(droppedAll).toBe(0);

    cache.applyNotification("*");
    expect(cache.size).toBe(0);
    expect(droppedAll).toBe(1);

    await cache.fill(2, DAY, async () => answer("v2"));
    cache.applyNotification("2,kaputt");
    expect(cache.size).toBe(0);
    expect(droppedAll).toBe(2);
    await cache.fill(2, DAY, async () => answer("v2"));
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
    expect(await filling).toEqual(answer("alt"));
    expect(cache.get(1, DAY)).toBeUndefined();

    // a change of somebody else does not matter; a change of everybody does
    const second = deferred("neu");
    const other = cache.fill(1, DAY, second.compute);
    cache.drop([2]);
    second.finish();
    await other;
    expect(cache.get(1, DAY)).toEqual(answer("neu"));

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
    await cache.fill(1, DAY, async () => answer("wieder da"));
    expect(cache.get(1, DAY)).toEqual(answer("wieder da"));
  });

  it("lets answers expire after the time limit", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const cache = liveCache({ ttlMs: 1000 });
    await cache.fill(1, DAY, async () => answer("eins"));
    vi.advanceTimersByTime(999);
    expect(cache.get(1, DAY)).toEqual(answer("eins"));
    vi.advanceTimersByTime(1);
    expect(cache.get(1, DAY)).toBeUndefined();
  });

  it("keeps at most maxEntries answers, the oldest go first", async () => {
    const cache = liveCache({ maxEntries: 2 });
    await cache.fill(1, DAY, async () => answer("eins"));
    await cache.fill(2, DAY, async () => answer("zwei"));
    await cache.fill(1, DAY, async () => answer("eins, neu"));
    await cache.fill(3, DAY, async () => answer("drei"));
    expect(cache.size).toBe(2);
    expect(cache.get(2, DAY)).toBeUndefined();
    expect(cache.get(1, DAY)).toEqual(answer("eins, neu"));
    expect(cache.get(3, DAY)).toEqual(answer("drei"));
  });
});
