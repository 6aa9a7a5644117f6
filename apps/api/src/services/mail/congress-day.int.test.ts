import { schema } from "@app/db";
import { addDays, berlinDate } from "@app/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONGRESS_DAY_QUEUE } from "../../jobs/boss";
import { createCongress, createUser } from "../../testing/builders";
import { TestClock } from "../../testing/clock";
import { createTestApp, type TestApp } from "../../testing/harness";
import { queueCongressDayMails, queueTodaysCongressDayMails } from "./congress-day";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("event-day mail", () => {
  it("queues exactly one mail per participant, event and day, also when run twice and concurrently", async () => {
    const db = t.db.db;
    const day = "2027-03-10";
    const running = await createCongress(db, {
      title: "Läuft",
      firstDay: "2027-03-09",
      lastDay: "2027-03-11",
    });
    const oneDay = await createCongress(db, { title: "Eintägig", firstDay: day, lastDay: null });
    const later = await createCongress(db, {
      title: "Später",
      firstDay: "2027-03-11",
      lastDay: "2027-03-12",
    });
    const hidden = await createCongress(db, {
      title: "Versteckt",
      visible: false,
      firstDay: day,
      lastDay: day,
    });
    const a = await createUser(db);
    const b = await createUser(db);
    const inactive = await createUser(db, { active: false });
    await db.insert(schema.participations).values([
      { userId: a.id, congressId: running.id },
      { userId: b.id, congressId: running.id },
      { userId: a.id, congressId: oneDay.id },
      { userId: a.id, congressId: later.id },
      { userId: a.id, congressId: hidden.id },
      { userId: inactive.id, congressId: running.id },
    ]);

    const runs = await Promise.all([
      queueCongressDayMails(db, "https://app.example", day),
      queueCongressDayMails(db, "https://app.example", day),
    ]);
    const again = await queueCongressDayMails(db, "https://app.example", day);
    expect(runs.flat()).toHaveLength(3);
    expect(again).toEqual([]);

    const rows = await db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.templateName, "event-day"));
    expect(rows.map((r) => `${r.userId}:${r.congressId}`).sort()).toEqual(
      [`${a.id}:${running.id}`, `${b.id}:${running.id}`, `${a.id}:${oneDay.id}`].sort(),
    );
    const mail = rows.find((r) => r.userId === a.id && r.congressId === running.id);
    expect(mail?.variables).toMatchObject({
      congressTitle: "Läuft",
      url: `https://app.example/congress/${running.id}`,
    });

    // the next day is a new day of the running event
    expect(await queueCongressDayMails(db, "https://app.example", addDays(day, 1))).toHaveLength(3);
  });

  it("does nothing on a day without events", async () => {
    expect(await queueCongressDayMails(t.db.db, "https://app.example", addDays(berlinDate(), 3650))).toEqual(
      [],
    );
  });
});

describe("event-day mail at 0:00 Berlin, by the clock", () => {
  async function participant(firstDay: string) {
    const db = t.db.db;
    const congress = await createCongress(db, { title: `Am ${firstDay}`, firstDay, lastDay: null });
    const user = await createUser(db);
    await db.insert(schema.participations).values({ userId: user.id, congressId: congress.id });
    return { congress, user };
  }
  const queuedFor = async (congressId: number) =>
    (await t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.congressId, congressId)))
      .length;

  it("queues an event's mails from the first second of its Berlin day, in winter and in summer time", async () => {
    const clock = new TestClock();
    const deps = { db: t.db.db, clock };
    // 10 March 2030: Berlin is UTC+1; 10 July 2030: UTC+2
    for (const [day, lastSecondBefore, midnight] of [
      ["2030-03-10", "2030-03-09T22:59:59Z", "2030-03-09T23:00:00Z"],
      ["2030-07-10", "2030-07-09T21:59:59Z", "2030-07-09T22:00:00Z"],
    ] as const) {
      const { congress } = await participant(day);
      clock.set(lastSecondBefore);
      await queueTodaysCongressDayMails(deps, "https://app.example");
      expect(await queuedFor(congress.id)).toBe(0);
      clock.set(midnight);
      expect(await queueTodaysCongressDayMails(deps, "https://app.example")).toHaveLength(1);
      expect(await queuedFor(congress.id)).toBe(1);
    }
  });
});

describe("the scheduled event-day job", () => {
  let m: TestApp;
  beforeAll(async () => {
    m = await createTestApp({ mail: true });
  });
  afterAll(async () => {
    await m?.close();
  });

  it("mails the participants of the day the application's clock is in", async () => {
    const db = m.db.db;
    const congress = await createCongress(db, {
      title: "Mitternacht",
      firstDay: "2030-03-10",
      lastDay: null,
    });
    const user = await createUser(db);
    await db.insert(schema.participations).values({ userId: user.id, congressId: congress.id });
    m.clock.set("2030-03-09T23:00:05Z");
    await m.jobs?.boss.send(CONGRESS_DAY_QUEUE, {});
    const mail = await m.smtp.waitFor((sent) => sent.to.includes(user.email), 20_000);
    expect(mail.html).toContain(`/congress/${congress.id}`);
  }, 30_000);
});
