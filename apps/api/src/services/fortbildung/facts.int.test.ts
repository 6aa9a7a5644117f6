import { schema } from "@app/db";
import { addDays, formatGermanDate, type IsoDate } from "@app/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createContent,
  createUser,
  participate,
  relDay,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";
import { contentSecondsOfDay, loadFortbildungEvent, participantDays, recordingFacts } from "./facts";

/** ADR 0105: the facts of each participant's days on a real database, and what the rule makes of them. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.db.db;

async function video(durationSeconds: number | null) {
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds });
  return url;
}

async function watched(
  userId: number,
  congressId: number,
  day: IsoDate,
  key: string,
  played: string,
  source: "player" | "report" = "player",
) {
  const seconds = [...played.matchAll(/\[(\d+),(\d+)\)/g)].reduce(
    (s, m) => s + Number(m[2]) - Number(m[1]),
    0,
  );
  await db()
    .insert(schema.watchTime)
    .values({ userId, congressId, day, videoKey: key, source, played, seconds });
}

const minutes = (m: number) => `{[0,${m * 60})}`;

describe("the facts of a participant's day", () => {
  it("count a day's videos (its own date and the days without one), the distinct seconds, and checks answered in 120 s", async () => {
    const first = relDay(0);
    const second = addDays(first, 1);
    const congress = await createCongress(db(), { fortbildung: true, firstDay: first, lastDay: second });
    const [a, b, onlySecond, unknown] = [
      await video(3600),
      await video(1800),
      await video(2700),
      await video(null),
    ];
    await createContent(db(), congress.id, [
      { urls: [a, b] },
      { exclusive_date: formatGermanDate(second), urls: [onlySecond, unknown] },
    ]);
    const anna = await createUser(db(), { firstname: "Anna", lastname: "Albers" });
    await participate(db(), anna.id, congress.id);
    // day 1: all of a (60 min), 40 of b's 30 min cannot be: 20 min; a video of day 2 watched on day 1 adds nothing
    await watched(anna.id, congress.id, first, previewKey(a), minutes(60));
    await watched(anna.id, congress.id, first, previewKey(b), minutes(20));
    await watched(anna.id, congress.id, first, previewKey(onlySecond), minutes(45));
    const checks = (seconds: number | null, seq: number) => ({
      userId: anna.id,
      congressId: congress.id,
      day: first,
      seq,
      dueAtSeconds: 60 * seq,
      askedAt: new Date("2030-01-01T10:00:00Z"),
      answeredAt: seconds === null ? null : new Date(Date.parse("2030-01-01T10:00:00Z") + seconds * 1000),
    });
    await db()
      .insert(schema.presenceChecks)
      .values([checks(120, 1), checks(121, 2), checks(null, 3), checks(5, 4)]);

    const event = await loadFortbildungEvent(db(), congress.id);
    const days = await participantDays(db(), event);
    expect(
      days.map((d) => [d.day, d.contentSeconds, d.unknownVideos, d.attendedSeconds, d.checksPassed]),
    ).toEqual([
      [first, 5400, 0, 80 * 60, 2],
      // day 2: the videos without a date and its own; the one of unknown length is left out and named
      [second, 3600 + 1800 + 2700, 1, 0, 0],
    ]);
    expect(days[0]?.outcome).toMatchObject({
      contentMinutes: 90,
      attendedMinutes: 80,
      requiredMinutes: 72,
      reached: true,
      points: 2,
    });
    expect(days[1]?.outcome.reached).toBe(false);
  });

  it("take the player's and a report's seconds of one video once, and a webinar's length from the event", async () => {
    const day = relDay(0);
    const congress = await createCongress(db(), {
      fortbildung: true,
      webinar: true,
      webinarMinutes: 120,
      firstDay: day,
      lastDay: day,
    });
    const ben = await createUser(db(), { firstname: "Ben", lastname: "Brandt" });
    // 10:00-11:00 from the report, 10:30-11:30 measured by the player: 90 distinct minutes
    await watched(ben.id, congress.id, day, "webinar", "{[36000,39600)}", "report");
    await watched(ben.id, congress.id, day, "webinar", "{[37800,41400)}", "player");
    const [row] = await participantDays(db(), await loadFortbildungEvent(db(), congress.id));
    expect(row).toMatchObject({
      userId: ben.id,
      contentSeconds: 7200,
      attendedSeconds: 5400,
      fromPlayer: true,
      fromReport: true,
    });
    expect(row?.outcome).toMatchObject({ attendedMinutes: 90, requiredMinutes: 96, reached: false });
  });

  it("count a report and recordings played at the same hour only once (the person's wall clock)", async () => {
    const day = relDay(0);
    const congress = await createCongress(db(), { fortbildung: true, firstDay: day, lastDay: day });
    const talk = await video(7200);
    await createContent(db(), congress.id, [{ urls: [talk] }]);
    const cleo = await createUser(db());
    // in the Zoom panel 10:00-11:00, and at the same hour the recording's first hour played in a window
    await watched(cleo.id, congress.id, day, "webinar", "{[36000,39600)}", "report");
    await watched(cleo.id, congress.id, day, previewKey(talk), minutes(60));
    await db()
      .insert(schema.watchClocks)
      .values({ userId: cleo.id, day, lastBeatAt: new Date(), wall: "{[36000,39600)}" });
    // a second person watched the recording 12:00-13:00 instead: both hours count
    const dora = await createUser(db());
    await watched(dora.id, congress.id, day, "webinar", "{[36000,39600)}", "report");
    await watched(dora.id, congress.id, day, previewKey(talk), minutes(60));
    await db()
      .insert(schema.watchClocks)
      .values({ userId: dora.id, day, lastBeatAt: new Date(), wall: "{[43200,46800)}" });
    const rows = await participantDays(db(), await loadFortbildungEvent(db(), congress.id));
    const attended = Object.fromEntries(rows.map((r) => [r.userId, r.attendedSeconds]));
    expect(attended[cleo.id]).toBe(3600);
    expect(attended[dora.id]).toBe(7200);
  });

  it("list everyone signed up or with watch time, one day or one person on request, in one statement", async () => {
    const day = relDay(0);
    const congress = await createCongress(db(), {
      fortbildung: true,
      firstDay: day,
      lastDay: addDays(day, 2),
    });
    const url = await video(600);
    await createContent(db(), congress.id, [{ urls: [url] }]);
    const people = [];
    for (let i = 0; i < 30; i++) {
      const user = await createUser(db(), { lastname: `Teilnehmer ${String(i).padStart(2, "0")}` });
      await participate(db(), user.id, congress.id);
      await watched(user.id, congress.id, day, previewKey(url), minutes(i % 11));
      people.push(user);
    }
    const buyer = await createUser(db(), { lastname: "Zuschauerin" });
    await watched(buyer.id, congress.id, day, previewKey(url), minutes(10));

    let statements = 0;
    const counting = new Proxy(db(), {
      get(target, name, receiver) {
        if (name === "execute") {
          return (...args: Parameters<typeof target.execute>) => {
            statements += 1;
            return target.execute(...args);
          };
        }
        return Reflect.get(target, name, receiver);
      },
    });
    const event = await loadFortbildungEvent(db(), congress.id);
    const all = await participantDays(counting, event);
    expect(statements).toBe(1);
    expect(all).toHaveLength(31 * 3);
    const today = await participantDays(db(), event, { day });
    expect(today).toHaveLength(31);
    expect(today.at(-1)).toMatchObject({ lastname: "Zuschauerin", attendedSeconds: 600 });
    // 8, 9 or 10 of 10 minutes: six participants and the buyer
    expect(today.filter((d) => d.outcome.reached)).toHaveLength(7);
    const mine = await participantDays(db(), event, { userId: people[3]?.id });
    expect(mine.map((d) => d.attendedSeconds)).toEqual([180, 0, 0]);
  });
});

describe("a video's length", () => {
  /** a day's content as the section, the presence checks and a recording's learning check count it */
  async function contentOfDay(congressId: number, day: IsoDate) {
    const [row] = await participantDays(db(), await loadFortbildungEvent(db(), congressId), { day });
    const window = await db().execute<{ seconds: number }>(
      sql`SELECT (${contentSecondsOfDay(congressId, day)})::int AS seconds`,
    );
    const recording = await recordingFacts(db(), { userId: 0, congressId, packageId: 0, day });
    return {
      section: row?.contentSeconds,
      unknown: row?.unknownVideos,
      checks: window.rows[0]?.seconds,
      recording: recording.contentSeconds,
    };
  }

  it("is the organiser's where Vimeo tells none (a private video), so the day can be reached", async () => {
    const day = relDay(0);
    const congress = await createCongress(db(), { fortbildung: true, firstDay: day, lastDay: day });
    // oEmbed answered without a length; the other was never asked
    const [privateVideo, notAsked] = [await video(null), videoUrl()];
    await createContent(db(), congress.id, [{ urls: [privateVideo, notAsked], durations: [1800, 600] }]);
    const carla = await createUser(db(), { firstname: "Carla", lastname: "Conrad" });
    await participate(db(), carla.id, congress.id);
    await watched(carla.id, congress.id, day, previewKey(privateVideo), minutes(25));
    await watched(carla.id, congress.id, day, previewKey(notAsked), minutes(7));

    expect(await contentOfDay(congress.id, day)).toEqual({
      section: 2400,
      unknown: 0,
      checks: 2400,
      recording: 2400,
    });
    const [row] = await participantDays(db(), await loadFortbildungEvent(db(), congress.id));
    expect(row?.outcome).toMatchObject({ contentMinutes: 40, attendedMinutes: 32, reached: true });
  });

  it("is the organiser's over Vimeo's; one address given twice counts with the longer", async () => {
    const day = relDay(0);
    const congress = await createCongress(db(), { fortbildung: true, firstDay: day, lastDay: day });
    const [told, twice, vimeoOnly] = [await video(3600), await video(null), await video(900)];
    await createContent(db(), congress.id, [
      { urls: [told, twice, vimeoOnly], durations: [1200, 300] },
      { urls: [twice], durations: [420] },
    ]);
    await participate(db(), (await createUser(db())).id, congress.id);
    expect(await contentOfDay(congress.id, day)).toEqual({
      section: 1200 + 420 + 900,
      unknown: 0,
      checks: 1200 + 420 + 900,
      recording: 1200 + 420 + 900,
    });
  });
});
