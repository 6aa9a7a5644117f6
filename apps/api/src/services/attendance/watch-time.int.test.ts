import { schema } from "@app/db";
import { berlinDate, HEARTBEAT_MAX_CREDIT_SECONDS, MSG_WATCH, ZHeartbeatInput } from "@app/shared";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../lib/app-error";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  packageOrder,
  participate,
  relDay,
  videoUrl,
} from "../../testing/builders";
import { TestClock } from "../../testing/clock";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";
import { creditHeartbeat } from "./watch-time";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.db;

/** 10:00 today in Berlin (whatever the hour of the run): every clock of this file starts there. */
const START = new Date(`${berlinDate()}T10:00:00+01:00`);

function testClock(): TestClock {
  const clock = new TestClock();
  clock.set(START);
  return clock;
}

type Range = [number, number];
const toRanges = (ranges: Range[]) => ranges.map(([start, end]) => ({ start, end }));

/** A participant of a running event with `count` videos; `beat` sends a heartbeat as the web app does. */
async function watching(count = 1) {
  const clock = testClock();
  const congress = await createCongress(db());
  const urls = Array.from({ length: count }, () => videoUrl());
  await createContent(db(), congress.id, [{ urls }]);
  const user = await createUser(db());
  await participate(db(), user.id, congress.id);
  const ctx = { db: db(), env: t.env, clock };
  const beat = (url: string, ranges: Range[] = [], extra: { live?: boolean; liveSeconds?: number } = {}) =>
    creditHeartbeat(ctx, {
      userId: user.id,
      ...ZHeartbeatInput.parse({
        congressId: congress.id,
        videoUrl: url,
        ranges: toRanges(ranges),
        ...extra,
      }),
    });
  return { clock, congress, urls, user, ctx, beat, url: urls[0] as string };
}

describe("watch time from heartbeats", () => {
  it("credits distinct seconds: a replay or a seek back adds nothing", async () => {
    const { clock, beat, url } = await watching();
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    clock.advance(60_000);
    // watched 0-60 again
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    clock.advance(60_000);
    // sought back to 30 and played on to 90: only 60-90 is new
    expect(await beat(url, [[30, 90]])).toEqual({ seconds: 90 });
  });

  it("credits no more than the wall-clock time since the last heartbeat (2x speed)", async () => {
    const { clock, beat, url } = await watching();
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 120]])).toEqual({ seconds: 60 });
    clock.advance(30_000);
    // the other half of that minute stays uncredited; what is played now counts up to the 30 s passed
    expect(await beat(url, [[120, 180]])).toEqual({ seconds: 90 });
  });

  it("credits at most one interval for a first heartbeat without a start, and never after a long pause", async () => {
    const { clock, beat, url } = await watching();
    expect(await beat(url, [[0, 600]])).toEqual({ seconds: HEARTBEAT_MAX_CREDIT_SECONDS });
    clock.advance(3600 * 1000);
    expect(await beat(url, [[600, 1200]])).toEqual({ seconds: 2 * HEARTBEAT_MAX_CREDIT_SECONDS });
  });

  it("a second tab playing the same video adds nothing", async () => {
    const { clock, beat, url } = await watching();
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    // the second tab at another position in the same minute: no wall-clock time left
    expect(await beat(url, [[300, 360]])).toEqual({ seconds: 60 });
  });

  it("two heartbeats at the same moment credit the minute once (no read-modify-write race)", async () => {
    for (let round = 0; round < 5; round++) {
      const { clock, beat, url } = await watching();
      await beat(url);
      clock.advance(60_000);
      const answers = await Promise.all([beat(url, [[0, 60]]), beat(url, [[500, 560]])]);
      expect(Math.max(...answers.map((a) => a.seconds))).toBe(60);
    }
  });

  it("keeps each video and day apart and stores the positions", async () => {
    const { clock, beat, urls, user, congress } = await watching(2);
    const [first, second] = urls as [string, string];
    await beat(first);
    await beat(second);
    clock.advance(60_000);
    await beat(first, [[0, 60]]);
    await beat(second, [[10, 40]]);
    const rows = await db()
      .select()
      .from(schema.watchTime)
      .where(and(eq(schema.watchTime.userId, user.id), eq(schema.watchTime.congressId, congress.id)));
    const byKey = Object.fromEntries(rows.map((r) => [r.videoKey, r]));
    expect(byKey[previewKey(first)]).toMatchObject({ seconds: 60, played: "{[0,60)}", source: "player" });
    expect(byKey[previewKey(second)]).toMatchObject({ seconds: 30, played: "{[10,40)}" });
  });

  it("counts a recording only within its length once oEmbed told it", async () => {
    const { clock, beat, url } = await watching();
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(url), url, durationSeconds: 50 });
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 50 });
  });

  it("credits a live stream by the wall clock; a second tab of it adds nothing", async () => {
    const { clock, beat, url } = await watching();
    await beat(url, [], { live: true });
    clock.advance(60_000);
    expect(await beat(url, [], { live: true, liveSeconds: 60 })).toEqual({ seconds: 60 });
    expect(await beat(url, [], { live: true, liveSeconds: 60 })).toEqual({ seconds: 60 });
    clock.advance(60_000);
    expect(await beat(url, [], { live: true, liveSeconds: 600 })).toEqual({ seconds: 120 });
  });

  it("credits nothing outside the content's access rules", async () => {
    const { beat, ctx, congress, url } = await watching();
    const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(AppError);
    // a video that is not the event's
    await expect(beat(videoUrl())).rejects.toMatchObject({ userMessage: MSG_WATCH.video });
    // a visitor who does not take part
    const stranger = await createUser(db());
    await refused(
      creditHeartbeat(ctx, {
        userId: stranger.id,
        ...ZHeartbeatInput.parse({ congressId: congress.id, videoUrl: url }),
      }),
    );
    // an event that is over
    const over = await createCongress(db(), { firstDay: relDay(-5), lastDay: relDay(-3) });
    const overUrl = videoUrl();
    await createContent(db(), over.id, [{ urls: [overUrl] }]);
    const participant = await createUser(db());
    await participate(db(), participant.id, over.id);
    await refused(
      creditHeartbeat(ctx, {
        userId: participant.id,
        ...ZHeartbeatInput.parse({ congressId: over.id, videoUrl: overUrl }),
      }),
    );
    // a video shown only on another day of the event
    const later = videoUrl();
    await createContent(db(), congress.id, [{ urls: [later], exclusive_date: "01.01.2099" }]);
    await expect(beat(later)).rejects.toMatchObject({ userMessage: MSG_WATCH.video });
  });

  it("credits a recording on the page of a bought package, and refuses one not bought", async () => {
    const clock = testClock();
    const congress = await createCongress(db(), { firstDay: relDay(-30), lastDay: relDay(-29) });
    const url = videoUrl();
    await createContent(db(), congress.id, [{ urls: [url] }]);
    const pkg = await createPackage(db(), congress.id);
    const buyer = await createUser(db());
    await packageOrder(db(), buyer.id, pkg.id, "paid");
    const ctx = { db: db(), env: t.env, clock };
    const beat = (userId: number, ranges: Range[]) =>
      creditHeartbeat(ctx, {
        userId,
        ...ZHeartbeatInput.parse({
          congressId: congress.id,
          packageId: pkg.id,
          videoUrl: url,
          ranges: toRanges(ranges),
        }),
      });
    await beat(buyer.id, []);
    clock.advance(60_000);
    expect(await beat(buyer.id, [[0, 60]])).toEqual({ seconds: 60 });
    const other = await createUser(db());
    await expect(beat(other.id, [])).rejects.toBeInstanceOf(AppError);
  });
});

/** What the crediting rule says, in memory: the union of played positions, bounded by the wall clock. */
function expected(beats: Array<{ wait: number; ranges: Range[] }>): number {
  const played = new Set<number>();
  let now = 0;
  let last: number | undefined;
  for (const { wait, ranges } of beats) {
    now += wait;
    let budget =
      last === undefined
        ? HEARTBEAT_MAX_CREDIT_SECONDS
        : Math.max(0, Math.min(HEARTBEAT_MAX_CREDIT_SECONDS, now - last));
    const fresh = new Set<number>();
    for (const [start, end] of ranges) {
      for (let s = Math.round(start); s < Math.round(end); s++) {
        if (!played.has(s)) {
          fresh.add(s);
        }
      }
    }
    for (const s of [...fresh].sort((a, b) => a - b)) {
      if (budget-- <= 0) {
        break;
      }
      played.add(s);
    }
    last = Math.max(last ?? now, now);
  }
  return played.size;
}

describe("watch time, any sequence of heartbeats (property)", () => {
  const range = fc
    .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 120 }))
    .map(([start, length]): Range => [start, start + length]);
  const beats = fc.array(
    fc.record({ wait: fc.integer({ min: 0, max: 150 }), ranges: fc.array(range, { maxLength: 4 }) }),
    { minLength: 1, maxLength: 12 },
  );

  it("credits exactly the union of the played positions that the wall clock allows", {
    timeout: 300_000,
  }, async () => {
    const { clock, beat, congress } = await watching();
    await fc.assert(
      fc.asyncProperty(beats, async (sequence) => {
        // every run (and every shrunk rerun) on a video of its own, from 10:00 again
        const url = videoUrl();
        await createContent(db(), congress.id, [{ urls: [url] }]);
        clock.set(START);
        let seconds = 0;
        const start = clock.now().getTime();
        for (const { wait, ranges } of sequence) {
          clock.advance(wait * 1000);
          seconds = (await beat(url, ranges)).seconds;
        }
        const wall = (clock.now().getTime() - start) / 1000 - (sequence[0]?.wait ?? 0);
        expect(seconds).toBe(expected(sequence));
        expect(seconds).toBeLessThanOrEqual(HEARTBEAT_MAX_CREDIT_SECONDS + wall);
      }),
      { numRuns: 40 },
    );
  });
});
