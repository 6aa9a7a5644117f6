import { schema } from "@app/db";
import { ADMIN_PAGE_SIZE, addDays, formatGermanDate } from "@app/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createContent,
  createUser,
  participate,
  relDay,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";

/** ADR 0105: the organiser's section "Fortbildung", its export and the dashboard's counts. */

let t: TestApp;
let callers: Awaited<ReturnType<typeof adminAndVisitor>>;
beforeAll(async () => {
  t = await createTestApp();
  callers = await adminAndVisitor(t);
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.db.db;

/** A two-day Fortbildung event (yesterday, today), a 10-minute video each day, and 13 participants. */
async function event() {
  const [yesterday, today] = [relDay(-1), relDay(0)];
  const congress = await createCongress(db(), {
    title: "Fortbildung im Test",
    fortbildung: true,
    vnr: "2760602025000001",
    presenceChecksPerDay: 2,
    presenceChecksRequired: 1,
    firstDay: yesterday,
    lastDay: today,
  });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const people = [];
  for (let i = 0; i < 13; i++) {
    const user = await createUser(db(), {
      firstname: "Person",
      lastname: `Nr ${String(i).padStart(2, "0")}`,
    });
    await participate(db(), user.id, congress.id);
    people.push(user);
  }
  // today: the first four watched 9 minutes, two of them passed a check; one more came through a report
  for (const [i, user] of people.slice(0, 5).entries()) {
    await db()
      .insert(schema.watchTime)
      .values({
        userId: user.id,
        congressId: congress.id,
        day: today,
        videoKey: i === 4 ? "webinar" : previewKey(url),
        source: i === 4 ? "report" : "player",
        played: "{[0,540)}",
        seconds: 540,
      });
  }
  for (const user of people.slice(0, 2)) {
    const askedAt = new Date();
    await db().insert(schema.presenceChecks).values({
      userId: user.id,
      congressId: congress.id,
      day: today,
      seq: 1,
      dueAtSeconds: 60,
      askedAt,
      answeredAt: askedAt,
    });
  }
  return { congress, people, today, yesterday };
}

const section = (input: Record<string, unknown>, token = callers.adminToken) =>
  trpcQuery(t, "admin.fortbildung.getDay", input, { token });

describe("the section Fortbildung", () => {
  it("lists a day's participants with minutes, checks, source and outcome, filtered and paged", async () => {
    const { congress, people, today, yesterday } = await event();
    const all = await section({ congressId: congress.id });
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ day: today, listed: 13, reached: 2 });
    expect(all.data.event).toMatchObject({
      id: congress.id,
      days: [yesterday, today],
      vnr: "2760602025000001",
    });
    expect(all.data.page).toMatchObject({ total: 13, page: 1, pageSize: ADMIN_PAGE_SIZE });
    expect(all.data.page.items[0]).toEqual({
      id: people[0]?.id,
      name: "Person Nr 00",
      email: people[0]?.email,
      contentMinutes: 10,
      attendedMinutes: 9,
      requiredMinutes: 8,
      checksPassed: 1,
      checksRequired: 1,
      source: "Player",
      reached: true,
      points: 0,
    });
    expect(all.data.page.items[4]).toMatchObject({ source: "Teilnehmerbericht", reached: false });

    const reached = await section({ congressId: congress.id, reached: "erreicht" });
    expect(reached.data.page.items.map((r: { id: number }) => r.id)).toEqual([people[0]?.id, people[1]?.id]);
    const missed = await section({ congressId: congress.id, reached: "nicht-erreicht", page: 2 });
    expect(missed.data.page).toMatchObject({ total: 11, page: 2 });
    expect(missed.data.page.items).toHaveLength(1);
    const before = await section({ congressId: congress.id, day: yesterday });
    expect(before.data).toMatchObject({ day: yesterday, listed: 13, reached: 0 });
  });

  it("opens with the running Fortbildung event and is nothing to a visitor", async () => {
    const { congress } = await event();
    expect((await section({})).data.event.id).toBe(congress.id);
    expect((await section({}, callers.visitorToken)).status).toBe(403);
  });

  it("exports every day (or the day and filter shown) as CSV and XLSX, admins only", async () => {
    const { congress, people } = await event();
    const csv = await t.app.inject({
      method: "GET",
      url: `/api/admin/exports/fortbildung/${congress.id}.csv`,
      headers: { authorization: `Bearer ${callers.adminToken}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-disposition"]).toMatch(
      /filename="fortbildung-fortbildung-im-test-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      "Tag;Name;E-Mail;Minuten;Erforderlich ab (Minuten);Inhalt des Tages (Minuten);Anwesenheitsabfragen bestanden;Anwesenheitsabfragen erforderlich;Quelle;Erreicht;Punkte;VNR",
    );
    expect(lines).toHaveLength(1 + 26);
    expect(lines).toContain(
      `${lines[14]?.split(";")[0]};Person Nr 00;${people[0]?.email};9;8;10;1;1;Player;ja;0;2760602025000001`,
    );
    const reached = await t.app.inject({
      method: "GET",
      url: `/api/admin/exports/fortbildung/${congress.id}.xlsx?day=${relDay(0)}&reached=erreicht`,
      headers: { authorization: `Bearer ${callers.adminToken}` },
    });
    expect(reached.statusCode).toBe(200);
    expect(reached.headers["content-type"]).toContain("spreadsheetml");
    const refused = await t.app.inject({
      method: "GET",
      url: `/api/admin/exports/fortbildung/${congress.id}.csv`,
      headers: { authorization: `Bearer ${callers.visitorToken}` },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("shows on the dashboard how many reached each day so far", async () => {
    const { congress, today, yesterday } = await event();
    const dashboard = await trpcQuery(t, "admin.getDashboard", undefined, { token: callers.adminToken });
    expect(dashboard.data.fortbildung).toContainEqual({
      id: congress.id,
      title: "Fortbildung im Test",
      days: [
        { day: yesterday, listed: 13, reached: 0 },
        { day: today, listed: 13, reached: 2 },
      ],
    });
    expect(addDays(yesterday, 1)).toBe(today);
  });
});

describe("the section's warning about videos without a length", () => {
  async function vimeoSays(url: string, durationSeconds: number | null) {
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(url), url, durationSeconds });
  }

  it("names, before the event, every video of its days whose length neither the organiser nor Vimeo tells", async () => {
    const [first, last] = [relDay(5), relDay(6)];
    const congress = await createCongress(db(), { fortbildung: true, firstDay: first, lastDay: last });
    const [known, privateVideo, noComment, typed] = [videoUrl(), videoUrl(), videoUrl(), videoUrl()];
    const [live, later, elsewhere] = [videoUrl(), videoUrl(), videoUrl()];
    await vimeoSays(known, 600);
    await vimeoSays(privateVideo, null);
    await vimeoSays(live, null);
    const video = (url: string, comment = "", duration?: number) => ({
      url,
      comment,
      ...(duration && { duration }),
    });
    await db()
      .insert(schema.congressContents)
      .values({
        congressId: congress.id,
        type: "vimeo-url",
        data: {
          days: [
            {
              name: "Tag 1",
              exclusive_date: "",
              videos: [video(known, "Eröffnung"), video(privateVideo, "Hauptvortrag"), video(noComment)],
            },
            {
              name: "Tag 2",
              exclusive_date: formatGermanDate(last),
              videos: [video(typed, "Workshop", 1800), video(live, "Live-Diskussion")],
            },
            // shown on no day of the event: it counts for none
            { name: "Nachlese", exclusive_date: formatGermanDate(addDays(last, 3)), videos: [video(later)] },
          ],
        },
      });
    // another event's content says nothing about this one
    const other = await createCongress(db(), { fortbildung: true });
    await createContent(db(), other.id, [{ urls: [elsewhere] }]);

    const answer = await section({ congressId: congress.id });
    expect(answer.status).toBe(200);
    expect(answer.data.unknownLengths).toEqual({
      total: 3,
      videos: [
        { dayName: "Tag 1", date: null, video: "Hauptvortrag", url: privateVideo },
        { dayName: "Tag 1", date: null, video: noComment, url: noComment },
        { dayName: "Tag 2", date: last, video: "Live-Diskussion", url: live },
      ],
    });

    // once the organiser typed the lengths, nothing is left to warn about
    await db()
      .update(schema.congressContents)
      .set({
        data: { days: [{ name: "Tag 1", exclusive_date: "", videos: [video(privateVideo, "", 2400)] }] },
      })
      .where(eq(schema.congressContents.congressId, congress.id));
    expect((await section({ congressId: congress.id })).data.unknownLengths).toEqual({
      total: 0,
      videos: [],
    });
  });

  it("has nothing to say about a webinar with a set length", async () => {
    const congress = await createCongress(db(), {
      fortbildung: true,
      webinar: true,
      webinarMinutes: 90,
      firstDay: relDay(3),
      lastDay: relDay(3),
    });
    await createContent(db(), congress.id, [{ urls: [videoUrl()] }]);
    expect((await section({ congressId: congress.id })).data.unknownLengths).toEqual({
      total: 0,
      videos: [],
    });
  });
});
