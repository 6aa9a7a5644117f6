import { schema } from "@app/db";
import {
  berlinDate,
  MSG_PRESENCE,
  PRESENCE_CHECK_ANSWER_SECONDS,
  ZHeartbeatInput,
  ZPresenceAnswerInput,
} from "@app/shared";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  packageOrder,
  participate,
  videoUrl,
} from "../../testing/builders";
import { TestClock } from "../../testing/clock";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";
import { answerPresenceCheck } from "./presence-checks";
import { creditHeartbeat } from "./watch-time";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.db;
const START = new Date(`${berlinDate()}T10:00:00+01:00`);
const TODAY = berlinDate(START);

type Range = [number, number];

/**
 * A participant of a running Fortbildung event with `checks` presence checks a day, two videos of
 * `duration` seconds each (as oEmbed told) and 80% required: the moments lie within 5-95% of 0.8 x the day.
 */
async function fortbildung({ checks = 3, duration = 600, fortbildung = true } = {}) {
  const clock = new TestClock();
  clock.set(START);
  const congress = await createCongress(db(), { fortbildung, presenceChecksPerDay: checks });
  const urls = [videoUrl(), videoUrl()] as const;
  await createContent(db(), congress.id, [{ urls: [...urls] }]);
  await db()
    .insert(schema.videoPreviews)
    .values(urls.map((url) => ({ key: previewKey(url), url, durationSeconds: duration })));
  const ctx = { db: db(), env: t.env, clock };
  const participant = async () => {
    const user = await createUser(db());
    await participate(db(), user.id, congress.id);
    const beat = (url: string, ranges: Range[] = [], at = clock) =>
      creditHeartbeat(
        { ...ctx, clock: at },
        {
          userId: user.id,
          ...ZHeartbeatInput.parse({
            congressId: congress.id,
            videoUrl: url,
            ranges: ranges.map(([start, end]) => ({ start, end })),
          }),
        },
      );
    const answer = (seq: number, userId = user.id) =>
      answerPresenceCheck(ctx, {
        userId,
        ...ZPresenceAnswerInput.parse({ congressId: congress.id, day: TODAY, seq }),
      });
    const rows = () =>
      db()
        .select()
        .from(schema.presenceChecks)
        .where(
          and(eq(schema.presenceChecks.userId, user.id), eq(schema.presenceChecks.congressId, congress.id)),
        )
        .orderBy(asc(schema.presenceChecks.seq));
    return { user, beat, answer, rows };
  };
  return { clock, congress, urls, ctx, participant };
}

describe("presence checks: drawing", () => {
  it("draws the day's moments at the first heartbeat, one in each stretch of the required seconds", async () => {
    const { participant, urls } = await fortbildung({ checks: 3, duration: 600 });
    const p = await participant();
    expect(await p.rows()).toEqual([]);
    const answer = await p.beat(urls[0]);
    // nothing of the moments reaches the client
    expect(answer).toEqual({ seconds: 0 });
    const rows = await p.rows();
    expect(rows.map((r) => [r.seq, r.day, r.askedAt, r.answeredAt])).toEqual([
      [1, TODAY, null, null],
      [2, TODAY, null, null],
      [3, TODAY, null, null],
    ]);
    // 1200 s of content, 80% required: 960 s; the window 48-912 s in three stretches of 288 s
    rows.forEach((row, i) => {
      expect(row.dueAtSeconds).toBeGreaterThanOrEqual(48 + 288 * i);
      expect(row.dueAtSeconds).toBeLessThan(48 + 288 * (i + 1));
    });
    // a second heartbeat draws nothing new
    await p.beat(urls[0]);
    expect(await p.rows()).toEqual(rows);
  });

  it("draws anew for every participant (random, not derived from anything the client knows)", async () => {
    const { participant, urls } = await fortbildung({ checks: 1, duration: 3600 });
    const moments = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const p = await participant();
      await p.beat(urls[0]);
      const [row] = await p.rows();
      moments.add(row?.dueAtSeconds ?? -1);
    }
    // six draws from 5,472 possible seconds: all equal by chance has a probability of about 1e-19
    expect(moments.size).toBeGreaterThan(1);
    expect(moments.has(-1)).toBe(false);
  });

  it("asks nothing for an event without Fortbildung, on a package page or while the day's length is unknown", async () => {
    const plain = await fortbildung({ fortbildung: false });
    const p1 = await plain.participant();
    await p1.beat(plain.urls[0]);
    expect(await p1.rows()).toEqual([]);

    const unknown = await fortbildung();
    await db()
      .update(schema.videoPreviews)
      .set({ durationSeconds: null })
      .where(eq(schema.videoPreviews.key, previewKey(unknown.urls[0])));
    await db()
      .update(schema.videoPreviews)
      .set({ durationSeconds: null })
      .where(eq(schema.videoPreviews.key, previewKey(unknown.urls[1])));
    const p2 = await unknown.participant();
    await p2.beat(unknown.urls[0]);
    expect(await p2.rows()).toEqual([]);

    const { congress, urls, ctx } = await fortbildung();
    const pkg = await createPackage(db(), congress.id);
    const buyer = await createUser(db());
    await packageOrder(db(), buyer.id, pkg.id, "paid");
    await creditHeartbeat(ctx, {
      userId: buyer.id,
      ...ZHeartbeatInput.parse({ congressId: congress.id, packageId: pkg.id, videoUrl: urls[0] }),
    });
    expect(await db().$count(schema.presenceChecks, eq(schema.presenceChecks.userId, buyer.id))).toBe(0);
  });

  it("two first heartbeats at once draw each check once", async () => {
    for (let round = 0; round < 4; round++) {
      const { participant, urls } = await fortbildung({ checks: 3 });
      const p = await participant();
      await Promise.all([p.beat(urls[0]), p.beat(urls[1]), p.beat(urls[0])]);
      expect((await p.rows()).map((r) => r.seq)).toEqual([1, 2, 3]);
    }
  });
});

/** Plays minute by minute, alternating the two videos, until the answer carries a check; returns it. */
async function playUntilAsked(
  clock: TestClock,
  beat: (url: string, ranges?: Range[]) => ReturnType<typeof creditHeartbeat>,
  urls: readonly [string, string],
  from: { position: number },
) {
  for (let minute = 0; minute < 30; minute++) {
    const url = urls[minute % 2] as string;
    const position = from.position + Math.floor(minute / 2) * 60;
    clock.advance(60_000);
    const answer = await beat(url, [[position, position + 60]]);
    if (answer.presenceCheck) {
      from.position = position + 60;
      return answer;
    }
  }
  throw new Error("no presence check asked");
}

describe("presence checks: asking while watching", () => {
  it("asks a check once the day's credited seconds reach its moment, across the day's videos", async () => {
    const { clock, participant, urls, congress } = await fortbildung({ checks: 3 });
    const p = await participant();
    await p.beat(urls[0]);
    await p.beat(urls[1]);
    const [first] = await p.rows();
    const due = first?.dueAtSeconds ?? 0;
    let credited = 0;
    let asked: Awaited<ReturnType<typeof creditHeartbeat>> | undefined;
    for (let minute = 0; minute < 10 && !asked?.presenceCheck; minute++) {
      const url = urls[minute % 2] as string;
      const position = Math.floor(minute / 2) * 60;
      clock.advance(60_000);
      asked = await p.beat(url, [[position, position + 60]]);
      credited += 60;
      if (!asked.presenceCheck) {
        expect(credited).toBeLessThan(due);
      }
    }
    expect(credited).toBeGreaterThanOrEqual(due);
    expect(asked?.presenceCheck).toEqual({
      congressId: congress.id,
      day: TODAY,
      seq: 1,
      askedAt: clock.now().toISOString(),
    });
    expect((await p.rows())[0]?.askedAt).toEqual(clock.now());
  });

  it("answers an open check again with every heartbeat until answered or its 120 s are over; then the next", async () => {
    const { clock, participant, urls } = await fortbildung({ checks: 3, duration: 300 });
    const p = await participant();
    await p.beat(urls[0]);
    await p.beat(urls[1]);
    const progress = { position: 0 };
    const asked = await playUntilAsked(clock, p.beat, urls, progress);
    const askedAt = asked.presenceCheck?.askedAt;
    clock.advance(30_000);
    const again = await p.beat(urls[0]);
    expect(again.presenceCheck).toEqual(asked.presenceCheck);
    // left unanswered: after 120 s it is no longer offered, and it failed
    clock.advance(PRESENCE_CHECK_ANSWER_SECONDS * 1000);
    const later = await playUntilAsked(clock, p.beat, urls, progress);
    expect(later.presenceCheck?.seq).toBe(2);
    const rows = await p.rows();
    expect(rows[0]?.askedAt?.toISOString()).toBe(askedAt);
    expect(rows[0]?.answeredAt).toBeNull();
  });

  it("two heartbeats at the same moment ask a due check once, and the next heartbeat still offers it", async () => {
    for (let round = 0; round < 4; round++) {
      const { clock, participant, urls } = await fortbildung({ checks: 1, duration: 300 });
      const p = await participant();
      await p.beat(urls[0]);
      await p.beat(urls[1]);
      const due = (await p.rows())[0]?.dueAtSeconds ?? 0;
      const chunks = urls.flatMap((url) =>
        [0, 60, 120, 180, 240].map((at): [string, Range[]] => [url, [[at, at + 60]]]),
      );
      // credited up to less than a minute short of the moment, then three heartbeats at once cross it
      let credited = 0;
      let next = 0;
      while (credited + 60 < due) {
        clock.advance(60_000);
        const [url, ranges] = chunks[next++] as [string, Range[]];
        expect((await p.beat(url, ranges)).presenceCheck).toBeUndefined();
        credited += 60;
      }
      clock.advance(60_000);
      // each a second apart on the clock: a check asked twice would carry two times
      const concurrent = [chunks[next], chunks[next], chunks[next + 1]] as Array<[string, Range[]]>;
      const answers = await Promise.all(
        concurrent.map(([url, ranges], i) => {
          const at = new TestClock();
          at.set(new Date(clock.now().getTime() + i * 1000));
          return p.beat(url, ranges, at);
        }),
      );
      const carrying = answers.filter((a) => a.presenceCheck);
      // whichever answers carried it (one asked it, a later one may offer it again; none, when each
      // statement saw the other's video before it), the next heartbeat offers it, asked once
      clock.advance(10_000);
      const offered = await p.beat(urls[0]);
      const [row] = await p.rows();
      expect(offered.presenceCheck?.seq).toBe(1);
      expect(offered.presenceCheck?.askedAt).toBe(row?.askedAt?.toISOString());
      for (const answer of carrying) {
        expect(answer.presenceCheck?.askedAt).toBe(row?.askedAt?.toISOString());
      }
    }
  });
});

describe("presence checks: answering", () => {
  async function asked() {
    const { clock, participant, urls } = await fortbildung({ checks: 2, duration: 300 });
    const p = await participant();
    await p.beat(urls[0]);
    await p.beat(urls[1]);
    const answer = await playUntilAsked(clock, p.beat, urls, { position: 0 });
    return { clock, p, participant, seq: answer.presenceCheck?.seq ?? 0 };
  }

  it("passes within 120 s (at exactly 120 s too), and a second answer keeps the first", async () => {
    const { clock, p, seq } = await asked();
    clock.advance(PRESENCE_CHECK_ANSWER_SECONDS * 1000);
    const answeredAt = clock.now().toISOString();
    expect(await p.answer(seq)).toEqual({ passed: true, answeredAt });
    clock.advance(60_000);
    expect(await p.answer(seq)).toEqual({ passed: true, answeredAt });
    expect((await p.rows())[0]?.answeredAt?.toISOString()).toBe(answeredAt);
  });

  it("records a late answer without passing it", async () => {
    const { clock, p, seq } = await asked();
    clock.advance((PRESENCE_CHECK_ANSWER_SECONDS + 1) * 1000);
    const answeredAt = clock.now().toISOString();
    expect(await p.answer(seq)).toEqual({ passed: false, answeredAt });
    expect((await p.rows())[0]?.answeredAt?.toISOString()).toBe(answeredAt);
  });

  it("refuses another user's check and one not asked yet; the owner's stays open", async () => {
    const { p, participant, seq } = await asked();
    const other = await participant();
    await expect(p.answer(seq, other.user.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      userMessage: MSG_PRESENCE.unknown,
    });
    // the second check has not come yet
    await expect(p.answer(seq + 1)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await p.rows()).map((r) => r.answeredAt)).toEqual([null, null]);
  });

  it("through the API: the procedure answers the signed-in account's own check only", async () => {
    const { p, participant, seq } = await asked();
    const other = await participant();
    const call = async (userId: number) =>
      t.app.inject({
        method: "POST",
        url: "/trpc/attendance.answerPresenceCheck",
        headers: { authorization: `Bearer ${await t.tokenFor(userId)}` },
        payload: { json: { congressId: (await p.rows())[0]?.congressId, day: TODAY, seq } },
      });
    expect((await call(other.user.id)).statusCode).toBe(404);
    const own = await call(p.user.id);
    expect(own.statusCode).toBe(200);
    expect(own.json().result.data.json).toMatchObject({ passed: expect.any(Boolean) });
  });
});
