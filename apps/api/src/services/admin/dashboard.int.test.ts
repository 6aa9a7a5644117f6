import { schema } from "@app/db";
import { addDays, type IsoDate } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCongress, createPackage, createUser, participate, trpcQuery } from "../../testing/builders";
import { TestClock } from "../../testing/clock";
import { createTestApp, type TestApp } from "../../testing/harness";
import { DASHBOARD_DAYS, loadDashboard } from "./dashboard";

/**
 * Every number of the dashboard against data whose answer is known; "today" is fixed, and timestamps sit
 * close to Berlin midnight so a day counted in UTC instead of Europe/Berlin would show.
 */
let t: TestApp;
const db = () => t.db.db;
const TODAY = "2026-07-15" as IsoDate; // summer time: Berlin is UTC+2
/** a moment on a Berlin day, `hour` in Berlin time */
const at = (day: IsoDate, hour: number) => new Date(`${day}T${String(hour).padStart(2, "0")}:30:00+02:00`);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("dashboard aggregates", () => {
  it("counts sales, statuses, registrations, attendance and mail health per Berlin day", async () => {
    const running = await createCongress(db(), {
      title: "Laufender Kongress",
      firstDay: addDays(TODAY, -1),
      lastDay: addDays(TODAY, 1),
    });
    const later = await createCongress(db(), {
      title: "Späterer Kongress",
      firstDay: addDays(TODAY, 10),
      lastDay: null,
    });
    await createCongress(db(), {
      title: "Vorbei",
      firstDay: addDays(TODAY, -20),
      lastDay: addDays(TODAY, -19),
    });
    const pkg = await createPackage(db(), running.id);

    // registrations: two today at 00:30 Berlin (22:30 UTC the day before), one yesterday, one deleted
    const [a, b] = [
      await createUser(db(), { createdAt: at(TODAY, 0) }),
      await createUser(db(), { createdAt: at(TODAY, 0) }),
    ];
    const c = await createUser(db(), { createdAt: at(addDays(TODAY, -1), 12) });
    await createUser(db(), { createdAt: at(TODAY, 9), deletedAt: at(TODAY, 10) });
    // an old registration outside the 30 days
    await createUser(db(), { createdAt: at(addDays(TODAY, -DASHBOARD_DAYS), 12) });

    for (const user of [a, b, c]) {
      await participate(db(), user.id, running.id);
    }
    await participate(db(), a.id, later.id);

    const ticket = (userId: number, status: string, createdAt: Date, n: number) =>
      db()
        .insert(schema.congressTicketOrders)
        .values({ userId, congressId: running.id, status, externalId: `T${n}`, createdAt });
    await ticket(a.id, "paid", at(TODAY, 0), 1);
    await ticket(b.id, "paid", at(TODAY, 23), 2);
    await ticket(c.id, "canceled", at(TODAY, 12), 3);
    // outside the 30 days: in no count
    await ticket(c.id, "paid", at(addDays(TODAY, -DASHBOARD_DAYS), 12), 4);
    await db()
      .insert(schema.congressPackageOrders)
      .values([
        {
          userId: a.id,
          congressPackageId: pkg.id,
          status: "paid",
          externalId: "P1",
          createdAt: at(addDays(TODAY, -2), 8),
        },
        {
          userId: b.id,
          congressPackageId: pkg.id,
          status: "canceled",
          externalId: "P2",
          createdAt: at(TODAY, 8),
        },
      ]);

    await db()
      .insert(schema.attendances)
      .values([
        { userId: a.id, congressId: running.id, day: TODAY, source: "video" },
        { userId: b.id, congressId: running.id, day: TODAY, source: "webinar" },
        { userId: a.id, congressId: running.id, day: addDays(TODAY, -1), source: "video" },
      ]);

    const mail = (key: string, status: string, sentAt: Date | null) => ({
      idempotencyKey: `dash-${key}`,
      templateName: "event-day",
      toEmail: "x@example.com",
      status,
      sentAt,
    });
    await db()
      .insert(schema.mailOutbox)
      .values([
        mail("q1", "queued", null),
        mail("q2", "queued", null),
        mail("f1", "failed", null),
        mail("s-today", "sent", at(TODAY, 0)),
        mail("s-yesterday", "sent", at(addDays(TODAY, -1), 23)),
      ]);

    // noon in Berlin on TODAY: the clock decides which day is today
    const clock = new TestClock();
    clock.set(`${TODAY}T10:00:00Z`);
    const dashboard = await loadDashboard({ db: db(), clock });

    expect(dashboard.from).toBe(addDays(TODAY, -(DASHBOARD_DAYS - 1)));
    expect(dashboard.salesPerDay).toHaveLength(DASHBOARD_DAYS);
    const sales = (day: IsoDate) => dashboard.salesPerDay.find((d) => d.day === day);
    expect(sales(TODAY)).toEqual({ day: TODAY, tickets: 2, packages: 0 });
    expect(sales(addDays(TODAY, -2))).toEqual({ day: addDays(TODAY, -2), tickets: 0, packages: 1 });
    expect(dashboard.salesPerDay.reduce((sum, d) => sum + d.tickets + d.packages, 0)).toBe(3);

    expect(dashboard.orderStatus).toEqual({
      tickets: { paid: 2, canceled: 1 },
      packages: { paid: 1, canceled: 1 },
    });

    const registrations = (day: IsoDate) => dashboard.registrationsPerDay.find((d) => d.day === day)?.count;
    expect(registrations(TODAY)).toBe(2);
    expect(registrations(addDays(TODAY, -1))).toBe(1);
    expect(dashboard.registrationsPerDay.reduce((sum, d) => sum + d.count, 0)).toBe(3);

    const attendance = (day: IsoDate) => dashboard.attendancePerDay.find((d) => d.day === day)?.count;
    expect(attendance(TODAY)).toBe(2);
    expect(attendance(addDays(TODAY, -1))).toBe(1);

    expect(
      dashboard.upcomingCongresses.map((e) => [e.title, e.running, e.participants, e.attendingToday]),
    ).toEqual([
      ["Laufender Kongress", true, 3, 2],
      ["Späterer Kongress", false, 1, 0],
    ]);
    expect(dashboard.mail).toEqual({ queued: 2, failed: 1, sentToday: 1 });
  });

  it("answers admins only", async () => {
    const visitor = await createUser(db());
    const admin = await createUser(db(), { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    expect(
      (await trpcQuery(t, "admin.getDashboard", undefined, { token: await t.tokenFor(visitor.id) })).status,
    ).toBe(403);
    const answer = await trpcQuery(t, "admin.getDashboard", undefined, {
      token: await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]),
    });
    expect(answer.status).toBe(200);
    expect(answer.data.salesPerDay).toHaveLength(DASHBOARD_DAYS);
  });
});
