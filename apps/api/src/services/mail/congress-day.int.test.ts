import { schema } from "@app/db";
import { addDays, berlinDate } from "@app/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCongress, createUser } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { queueCongressDayMails } from "./congress-day";

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
