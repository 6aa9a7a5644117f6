import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { berlinDate, ZHeartbeatInput } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createContent,
  createUser,
  participate,
  relDay,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { creditHeartbeat } from "../attendance/watch-time";
import { runRetention } from "../privacy/retention";
import { previewKey } from "../visitor/video-preview";

/** ADR 0105, ADR 0106: what the participant sees of their days, and what privacy says and does with it. */

const PASSWORD = "sicheres-Passwort-1";
let t: TestApp;
let passwordHash: string;
beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.db.db;

async function visitor() {
  const user = await createUser(db(), { passwordHash, emailConfirmedAt: new Date() });
  return { user, token: await t.tokenFor(user.id) };
}

/** A running Fortbildung event of one day (today) with one 10-minute video, and a participant. */
async function scene(values: Partial<typeof schema.congresses.$inferInsert> = {}) {
  const today = relDay(0);
  const congress = await createCongress(db(), {
    fortbildung: true,
    firstDay: today,
    lastDay: today,
    ...values,
  });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const me = await visitor();
  await participate(db(), me.user.id, congress.id);
  return { congress, url, today, ...me };
}

describe("the participant's Fortbildung days", () => {
  it("say how many minutes count and from how many the certificate comes, then that the day is reached", async () => {
    const { congress, url, today, user, token } = await scene({ presenceChecksPerDay: 0 });
    const mine = () => trpcQuery(t, "fortbildung.getMyDays", { congressId: congress.id }, { token });
    expect((await mine()).data).toEqual({
      vnr: null,
      days: [
        {
          day: today,
          contentMinutes: 10,
          attendedMinutes: 0,
          requiredMinutes: 8,
          unknownVideos: 0,
          checksRequired: 0,
          checksPassed: 0,
          reached: false,
        },
      ],
    });
    // the player reports 8 minutes in heartbeats a minute apart
    const clock = t.clock;
    clock.set(new Date(`${berlinDate()}T10:00:00+01:00`));
    try {
      const beat = (start: number, end: number) =>
        creditHeartbeat(
          { db: db(), env: t.env, clock },
          {
            userId: user.id,
            ...ZHeartbeatInput.parse({ congressId: congress.id, videoUrl: url, ranges: [{ start, end }] }),
          },
        );
      await beat(0, 0);
      for (let minute = 0; minute < 8; minute++) {
        clock.advance(60_000);
        await beat(minute * 60, (minute + 1) * 60);
      }
    } finally {
      clock.reset();
    }
    expect((await mine()).data.days[0]).toMatchObject({ attendedMinutes: 8, reached: true });
  });

  it("are nothing for an event without Fortbildung, and only the caller's own", async () => {
    const plain = await scene({ fortbildung: false });
    expect(
      (await trpcQuery(t, "fortbildung.getMyDays", { congressId: plain.congress.id }, plain)).data,
    ).toBeNull();
    const { congress, user } = await scene();
    await db()
      .insert(schema.watchTime)
      .values({
        userId: user.id,
        congressId: congress.id,
        day: relDay(0),
        videoKey: "webinar",
        source: "report",
        played: "{[0,600)}",
        seconds: 600,
      });
    const other = await visitor();
    const theirs = await trpcQuery(t, "fortbildung.getMyDays", { congressId: congress.id }, other);
    expect(theirs.data.days[0]).toMatchObject({ attendedMinutes: 0 });
    expect((await trpcQuery(t, "fortbildung.getMyDays", { congressId: congress.id })).status).toBe(401);
  });
});

describe("privacy of the Fortbildung records", () => {
  async function answeredCheck(userId: number, congressId: number, day: string) {
    await db()
      .insert(schema.presenceChecks)
      .values([
        { userId, congressId, day, seq: 1, dueAtSeconds: 60, askedAt: new Date(), answeredAt: new Date() },
        { userId, congressId, day, seq: 2, dueAtSeconds: 1800 },
      ]);
  }

  it("are in the data export (asked checks only) and go with the account", async () => {
    const { congress, user, token } = await scene({ title: "Export-Fortbildung" });
    await answeredCheck(user.id, congress.id, relDay(0));
    const exported = await trpcQuery(t, "account.export", undefined, { token });
    expect(exported.data.presenceChecks).toEqual([
      expect.objectContaining({ congress: "Export-Fortbildung", day: relDay(0) }),
    ]);
    expect(exported.data.presenceChecks[0].answeredAt).toBeTruthy();

    // with an order the account stays as a tombstone: its records must go all the same
    await db()
      .insert(schema.congressTicketOrders)
      .values({
        userId: user.id,
        congressId: congress.id,
        externalId: `ORDER-${user.id}`,
        status: "paid",
      });
    const res = await trpcMutation(t, "account.delete", { password: PASSWORD }, { token, ip: "10.33.0.1" });
    expect(res.status).toBe(200);
    const left = await db().execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM presence_checks WHERE user_id = ${user.id}`,
    );
    expect(left.rows[0]?.n).toBe(0);
  });

  it("are deleted five years after their day (30 days for an event without Fortbildung) by the daily job", async () => {
    const { congress, user } = await scene();
    const plain = await createCongress(db(), { firstDay: relDay(-40), lastDay: relDay(0) });
    const row = (congressId: number, day: string) => ({
      userId: user.id,
      congressId,
      day,
      videoKey: `key-${day}`,
      source: "player",
    });
    const fiveYears = (extraDays: number) => {
      const d = new Date(`${relDay(0)}T00:00:00Z`);
      d.setUTCFullYear(d.getUTCFullYear() - 5);
      d.setUTCDate(d.getUTCDate() + extraDays);
      return d.toISOString().slice(0, 10);
    };
    await db()
      .insert(schema.watchTime)
      .values([
        row(congress.id, fiveYears(-1)),
        row(congress.id, fiveYears(0)),
        row(plain.id, relDay(-31)),
        row(plain.id, relDay(-30)),
      ]);
    await answeredCheck(user.id, congress.id, fiveYears(-1));

    const counts = await runRetention(db());
    expect(counts.fortbildungRecords).toBe(4);
    const kept = await db()
      .select({ day: schema.watchTime.day })
      .from(schema.watchTime)
      .where(eq(schema.watchTime.userId, user.id));
    expect(kept.map((r) => r.day).sort()).toEqual([fiveYears(0), relDay(-30)].sort());
  });

  it("are explained on the privacy page: what, why and how long", async () => {
    const page = await trpcQuery(t, "legal.getPage", { slug: "datenschutz" });
    expect(page.data.html).toContain("Teilnahmenachweis für Fortbildungspunkte");
    expect(page.data.html).toContain("Anwesenheitsabfragen");
    expect(page.data.html).toContain("Teilnehmerbericht");
    expect(page.data.html).toContain("fünf Jahre nach dem Veranstaltungstag");
  });
});
