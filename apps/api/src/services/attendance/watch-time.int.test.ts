import { schema } from "@app/db";
import {
  berlinDate,
  berlinSecondOfDay,
  HEARTBEAT_INTERVAL_SECONDS,
  HEARTBEAT_MAX_CREDIT_SECONDS,
  MSG_WATCH,
  ZContentInput,
  ZHeartbeatInput,
} from "@app/shared";
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
import { saveContent } from "../admin/contents";
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

/** The seconds credited to `userId` today over every video and event. */
async function creditedOfDay(userId: number): Promise<number> {
  const rows = await db()
    .select({ seconds: schema.watchTime.seconds })
    .from(schema.watchTime)
    .where(and(eq(schema.watchTime.userId, userId), eq(schema.watchTime.day, berlinDate(START))));
  return rows.reduce((sum, row) => sum + row.seconds, 0);
}

/** 10:00 today in Berlin (whatever the hour of the run): every clock of this file starts there. */
const START = new Date(`${berlinDate()}T10:00:00+01:00`);

function testClock(): TestClock {
  const clock = new TestClock();
  clock.set(START);
  return clock;
}

type Range = [number, number];
const toRanges = (ranges: Range[]) => ranges.map(([start, end]) => ({ start, end }));

/**
 * A participant of a running event with `count` videos; `beat` sends a heartbeat as the web app does. With
 * `edited`, an admin saves the content as the content editor does (the shared schema, `saveContent`), each
 * video with those fields (e.g. the organiser's length and live flag).
 */
async function watching(count = 1, edited?: Record<string, unknown>) {
  const clock = testClock();
  const congress = await createCongress(db());
  const urls = Array.from({ length: count }, () => videoUrl());
  if (edited) {
    const admin = await createUser(db(), { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const videos = urls.map((url) => ({ url, comment: "", ...edited }));
    const content = { congress: congress.id, data: { days: [{ name: "Tag 1", videos }] } };
    await saveContent(db(), ZContentInput.parse(content), admin.id);
  } else {
    await createContent(db(), congress.id, [{ urls }]);
  }
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

  it("credits nothing for the day's first heartbeat without a start, and at most one interval after a pause", async () => {
    const { clock, beat, url } = await watching();
    expect(await beat(url, [[0, 600]])).toEqual({ seconds: 0 });
    clock.advance(3600 * 1000);
    expect(await beat(url, [[600, 1200]])).toEqual({ seconds: HEARTBEAT_MAX_CREDIT_SECONDS });
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

  it("keeps each video apart and stores the positions", async () => {
    const { clock, beat, urls, user, congress } = await watching(2);
    const [first, second] = urls as [string, string];
    await beat(first);
    clock.advance(60_000);
    await beat(first, [[0, 60]]);
    await beat(second);
    clock.advance(30_000);
    await beat(second, [[10, 40]]);
    const rows = await db()
      .select()
      .from(schema.watchTime)
      .where(and(eq(schema.watchTime.userId, user.id), eq(schema.watchTime.congressId, congress.id)));
    const byKey = Object.fromEntries(rows.map((r) => [r.videoKey, r]));
    expect(byKey[previewKey(first)]).toMatchObject({ seconds: 60, played: "{[0,60)}", source: "player" });
    expect(byKey[previewKey(second)]).toMatchObject({ seconds: 30, played: "{[10,40)}" });
  });

  it("credits a person's minute once, whatever number of videos plays in it (six windows)", async () => {
    const { clock, beat, urls, user } = await watching(6);
    await Promise.all(urls.map((url) => beat(url)));
    for (let minute = 0; minute < 10; minute++) {
      clock.advance(60_000);
      await Promise.all(urls.map((url) => beat(url, [[minute * 60, minute * 60 + 60]])));
    }
    expect(await creditedOfDay(user.id)).toBe(600);
  });

  it("leaves what one window's heartbeat does not spend of the minute to the other windows", async () => {
    const { clock, beat, urls, user } = await watching(2);
    const [late, early] = urls as [string, string];
    await Promise.all(urls.map((url) => beat(url)));
    clock.advance(60_000);
    // the late window's video played 20 of the minute's 60 seconds, and its heartbeat came first
    expect(await beat(late, [[0, 20]])).toEqual({ seconds: 20 });
    expect(await beat(early, [[0, 60]])).toEqual({ seconds: 40 });
    expect(await creditedOfDay(user.id)).toBe(60);
    clock.advance(60_000);
    expect(await beat(late, [[20, 80]])).toEqual({ seconds: 80 });
    expect(await beat(early, [[60, 120]])).toEqual({ seconds: 40 });
    expect(await creditedOfDay(user.id)).toBe(120);
  });

  it("lets a second video started in the same minute take nothing from the first", async () => {
    const { clock, beat, urls, user } = await watching(2);
    const [first, second] = urls as [string, string];
    await beat(first);
    clock.advance(50_000);
    // the second video starts (an empty heartbeat), the first pauses ten seconds later
    await beat(second);
    clock.advance(10_000);
    expect(await beat(first, [[0, 60]])).toEqual({ seconds: 60 });
    clock.advance(60_000);
    expect(await beat(second, [[0, 60]])).toEqual({ seconds: 60 });
    expect(await creditedOfDay(user.id)).toBe(120);
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

  it("decides itself what is live: a recording of known length stays within it whatever the player says", async () => {
    const { clock, beat, url, user, congress } = await watching();
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(url), url, durationSeconds: 600 });
    await beat(url, [], { live: true });
    for (let minute = 1; minute <= 3; minute++) {
      clock.advance(60_000);
      await beat(url, [], { live: true, liveSeconds: 60 });
    }
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]], { live: true, liveSeconds: 60 })).toEqual({ seconds: 60 });
    const [row] = await db()
      .select({ played: schema.watchTime.played })
      .from(schema.watchTime)
      .where(and(eq(schema.watchTime.userId, user.id), eq(schema.watchTime.congressId, congress.id)));
    expect(row?.played).toBe("{[0,60)}");
  });

  it("credits a stream Vimeo calls live by the clock, though the player reports positions", async () => {
    const { clock, beat, url, user, congress } = await watching();
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(url), url, live: true });
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    // another tab at another "position" in the same minute: the same seconds of the stream
    expect(await beat(url, [[3000, 3060]])).toEqual({ seconds: 60 });
    const [row] = await db()
      .select({ played: schema.watchTime.played })
      .from(schema.watchTime)
      .where(and(eq(schema.watchTime.userId, user.id), eq(schema.watchTime.congressId, congress.id)));
    const second = berlinSecondOfDay(clock.now());
    expect(row?.played).toBe(`{[${second - 60},${second})}`);
  });

  /** The positions stored for the one video of `watching`. */
  const playedOf = async (userId: number, congressId: number) => {
    const [row] = await db()
      .select({ played: schema.watchTime.played })
      .from(schema.watchTime)
      .where(and(eq(schema.watchTime.userId, userId), eq(schema.watchTime.congressId, congressId)));
    return row?.played;
  };

  it("credits a stream the organiser marks live by the clock, though it has a length and the player reports positions", async () => {
    // a private live stream: Vimeo tells nothing; the organiser types its planned duration and ticks "Livestream"
    const { clock, beat, url, user, congress } = await watching(1, { duration: "45:00", live: true });
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    const second = berlinSecondOfDay(clock.now());
    expect(await playedOf(user.id, congress.id)).toBe(`{[${second - 60},${second})}`);
  });

  it("takes the same video without the organiser's live flag as a recording of its length", async () => {
    const { clock, beat, url, user, congress } = await watching(1, { duration: "45:00" });
    await beat(url);
    clock.advance(60_000);
    expect(await beat(url, [[0, 60]])).toEqual({ seconds: 60 });
    expect(await playedOf(user.id, congress.id)).toBe("{[0,60)}");
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

/**
 * What the crediting rule says for one video, in memory (ADR 0126, ADR 0149): the union of played positions,
 * each heartbeat bounded by the person's clock, which a heartbeat that reported playing moves on by what it
 * spent (at most to now); the day's first credits nothing and sets the clock.
 */
function expected(beats: Array<{ wait: number; ranges: Range[] }>): number {
  const played = new Set<number>();
  let now = 0;
  let last: number | undefined;
  for (const { wait, ranges } of beats) {
    now += wait;
    const budget = last === undefined ? 0 : Math.max(0, Math.min(HEARTBEAT_MAX_CREDIT_SECONDS, now - last));
    const reported = new Set<number>();
    for (const [start, end] of ranges) {
      for (let s = Math.round(start); s < Math.round(end); s++) {
        reported.add(s);
      }
    }
    let spent = 0;
    for (const s of [...reported].filter((s) => !played.has(s)).sort((a, b) => a - b)) {
      if (spent >= budget) {
        break;
      }
      played.add(s);
      spent++;
    }
    if (last === undefined) {
      last = now;
    } else if (reported.size > 0) {
      last = Math.max(last, now - (budget - spent));
    }
  }
  return played.size;
}

/** A new participant of the running event of `base` (every property run is a person of its own). */
async function newViewer(base: Awaited<ReturnType<typeof watching>>) {
  const user = await createUser(db());
  await participate(db(), user.id, base.congress.id);
  const beat = (url: string, ranges: Range[]) =>
    creditHeartbeat(base.ctx, {
      userId: user.id,
      ...ZHeartbeatInput.parse({ congressId: base.congress.id, videoUrl: url, ranges: toRanges(ranges) }),
    });
  return { user, beat };
}

describe("watch time, any sequence of heartbeats (property)", () => {
  const range = fc
    .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 120 }))
    .map(([start, length]): Range => [start, start + length]);

  it("credits one video exactly the union of the played positions that the wall clock allows", {
    timeout: 300_000,
  }, async () => {
    const base = await watching();
    const beats = fc.array(
      fc.record({ wait: fc.integer({ min: 0, max: 150 }), ranges: fc.array(range, { maxLength: 4 }) }),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(beats, async (sequence) => {
        const { beat } = await newViewer(base);
        base.clock.set(START);
        let seconds = 0;
        for (const { wait, ranges } of sequence) {
          base.clock.advance(wait * 1000);
          seconds = (await beat(base.url, ranges)).seconds;
        }
        expect(seconds).toBe(expected(sequence));
      }),
      { numRuns: 40 },
    );
  });

  it("never credits a person more than the wall clock of their heartbeats, over any videos, tabs and clock jumps", {
    timeout: 300_000,
  }, async () => {
    const base = await watching(4);
    // a step: the clock moves (back too: a jump), then heartbeats of any videos go out at once
    const steps = fc.array(
      fc.record({
        wait: fc.integer({ min: -40, max: 150 }),
        beats: fc.array(fc.record({ video: fc.nat({ max: 3 }), ranges: fc.array(range, { maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
      }),
      { minLength: 1, maxLength: 10 },
    );
    await fc.assert(
      fc.asyncProperty(steps, async (schedule) => {
        const { user, beat } = await newViewer(base);
        base.clock.set(START);
        const times: number[] = [];
        for (const step of schedule) {
          base.clock.advance(step.wait * 1000);
          times.push(base.clock.now().getTime() / 1000);
          await Promise.all(step.beats.map(({ video, ranges }) => beat(base.urls[video] as string, ranges)));
        }
        const elapsed = Math.max(...times) - Math.min(...times);
        expect(await creditedOfDay(user.id)).toBeLessThanOrEqual(elapsed);
      }),
      { numRuns: 40 },
    );
  });

  it("loses an honest viewer at most one interval, across videos and pauses", {
    timeout: 300_000,
  }, async () => {
    const base = await watching(3);
    // one video after the other in one window: the start's empty heartbeat, then one per stretch played
    const segments = fc.array(
      fc.record({
        video: fc.nat({ max: 2 }),
        pause: fc.integer({ min: 0, max: 900 }),
        stretches: fc.array(fc.integer({ min: 1, max: HEARTBEAT_INTERVAL_SECONDS }), {
          minLength: 1,
          maxLength: 8,
        }),
      }),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(segments, async (plan) => {
        const { user, beat } = await newViewer(base);
        base.clock.set(START);
        const position = [0, 0, 0];
        let played = 0;
        for (const { video, pause, stretches } of plan) {
          base.clock.advance(pause * 1000);
          const url = base.urls[video] as string;
          await beat(url, []);
          for (const seconds of stretches) {
            base.clock.advance(seconds * 1000);
            const from = position[video] ?? 0;
            await beat(url, [[from, from + seconds]]);
            position[video] = from + seconds;
            played += seconds;
          }
        }
        const credited = await creditedOfDay(user.id);
        expect(credited).toBeLessThanOrEqual(played);
        expect(credited).toBeGreaterThanOrEqual(played - HEARTBEAT_INTERVAL_SECONDS);
      }),
      { numRuns: 30 },
    );
  });
});
