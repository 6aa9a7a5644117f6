import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { schema } from "@app/db";
import { fillMessage, formatGermanDateTime, MSG, REFUSALS } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  germanDay,
  multipart,
  packageOrder,
  participate,
  relDay,
  syncPackageSequence,
  ticketOrder,
  today,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/** Every describe block gets an application on a fresh database of its own, so their data never mix. */
function useApp(env: () => Record<string, string> = () => ({})): { t: TestApp } {
  const holder = {} as { t: TestApp };
  beforeAll(async () => {
    holder.t = await createTestApp({ env: env() });
  });
  afterAll(async () => {
    await holder.t?.close();
  });
  return holder;
}

async function rest(
  t: TestApp,
  method: "GET" | "POST" | "DELETE",
  url: string,
  userId?: number,
  body?: { headers: Record<string, string>; payload: string },
) {
  const token = userId === undefined ? undefined : await t.tokenFor(userId);
  return t.app.inject({
    method,
    url,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...body?.headers },
    ...(body && { payload: body.payload }),
  });
}

const ids = (list: { id: number }[]) => list.map((item) => item.id);

describe("overview", () => {
  const s = useApp();
  let user: typeof schema.users.$inferSelect;
  let other: typeof schema.users.$inferSelect;
  const ev: Record<string, number> = {};
  const pk: number[] = [];
  let hiddenPackage: number;

  beforeAll(async () => {
    const db = s.t.db.db;
    user = await createUser(db, { firstname: "Olga", lastname: "Overview" });
    other = await createUser(db);
    const base = Date.now() - 60 * 60 * 1000;
    const at = (minutes: number) => new Date(base + minutes * 60 * 1000);
    const make = async (key: string, minutes: number, values: Parameters<typeof createCongress>[1]) => {
      ev[key] = (await createCongress(db, { createdAt: at(minutes), ...values })).id;
    };
    await make("oldestRunning", 0, { firstDay: relDay(-1), lastDay: relDay(1) });
    await make("future", 1, { firstDay: relDay(5), lastDay: relDay(7) });
    await make("oneDayToday", 2, {
      firstDay: today(),
      lastDay: null,
      webinar: true,
      webinarUrl: "https://webinar.example/one-day",
    });
    await make("runningWithWebinar", 3, {
      firstDay: relDay(-2),
      lastDay: relDay(2),
      webinar: true,
      webinarUrl: "https://webinar.example/running",
    });
    await make("oneDayFuture", 4, { firstDay: relDay(10), lastDay: null });
    await make("endsToday", 5, { firstDay: relDay(-3), lastDay: today() });
    await make("futureNewest", 6, { firstDay: relDay(3), lastDay: relDay(4) });
    // newer but not shown
    await make("past", 7, { firstDay: relDay(-10), lastDay: relDay(-5) });
    await make("invisible", 8, { visible: false, firstDay: relDay(-1), lastDay: relDay(1) });
    await make("oneDayYesterday", 9, { firstDay: relDay(-1), lastDay: null });

    await participate(db, user.id, ev.oneDayToday as number);
    await participate(db, other.id, ev.runningWithWebinar as number);

    const packageCongress = await createCongress(db, { firstDay: relDay(-30), lastDay: relDay(-29) });
    for (let i = 0; i < 10; i += 1) {
      pk.push(
        (await createPackage(db, packageCongress.id, i === 2 ? { availabilityDate: relDay(5) } : {})).id,
      );
    }
    const [p0, p1, p2, p3] = pk as [number, number, number, number];
    await packageOrder(db, user.id, p0, "paid");
    await packageOrder(db, user.id, p1, "canceled");
    await packageOrder(db, user.id, p2, "paid");
    await packageOrder(db, user.id, p3, "canceled");
    await packageOrder(db, user.id, p3, "paid");
    hiddenPackage = (await createPackage(db, ev.invisible as number)).id;
  });

  it("shows at most 6 visible running or future events, running ones kept and above the coming ones, each newest (by first day) first, with their timing flags", async () => {
    const res = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor(user.id),
    });
    expect(res.status).toBe(200);
    const congresses = res.data.congresses as {
      id: number;
      inProgress: boolean;
      inFuture: boolean;
      inPast: boolean;
    }[];
    // the four running ones stay; of the three coming ones the two that start next fill the six; the running
    // ones come first (a phone shows them without scrolling past the coming ones)
    expect(ids(congresses)).toEqual([
      ev.oneDayToday,
      ev.oldestRunning,
      ev.runningWithWebinar,
      ev.endsToday,
      ev.future,
      ev.futureNewest,
    ]);
    const flags = Object.fromEntries(
      congresses.map((e) => [e.id, { inProgress: e.inProgress, inFuture: e.inFuture, inPast: e.inPast }]),
    );
    const running = { inProgress: true, inFuture: false, inPast: false };
    const coming = { inProgress: false, inFuture: true, inPast: false };
    expect(flags[ev.oneDayToday as number]).toEqual(running);
    expect(flags[ev.endsToday as number]).toEqual(running);
    expect(flags[ev.runningWithWebinar as number]).toEqual(running);
    expect(flags[ev.future as number]).toEqual(coming);
    expect(flags[ev.futureNewest as number]).toEqual(coming);
    expect(res.data.user).toEqual({ firstname: "Olga", lastname: "Overview" });
  });

  it("answers the same events on GET /api/congress/", async () => {
    const trpc = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor(user.id),
    });
    const res = await rest(s.t, "GET", "/api/congress/", user.id);
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
    expect(ids(res.json())).toEqual(ids(trpc.data.congresses));
  });

  it("gives the webinar link to participants only", async () => {
    const mine = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor(user.id),
    });
    const byId = new Map(
      (
        mine.data.congresses as { id: number; webinarUrl: string | null; currentUserParticipating: boolean }[]
      ).map((e) => [e.id, e]),
    );
    expect(byId.get(ev.oneDayToday as number)?.webinarUrl).toBe("https://webinar.example/one-day");
    expect(byId.get(ev.oneDayToday as number)?.currentUserParticipating).toBe(true);
    expect(byId.get(ev.runningWithWebinar as number)?.webinarUrl).toBeNull();
    expect(mine.body).not.toContain("https://webinar.example/running");

    const theirs = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor(other.id),
    });
    const otherById = new Map(
      (theirs.data.congresses as { id: number; webinarUrl: string | null }[]).map((e) => [e.id, e]),
    );
    expect(otherById.get(ev.runningWithWebinar as number)?.webinarUrl).toBe(
      "https://webinar.example/running",
    );
    expect(otherById.get(ev.oneDayToday as number)?.webinarUrl).toBeNull();
  });

  it("lists at most 8 packages, the user's own first, with order status and availability", async () => {
    const res = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor(user.id),
    });
    const packages = res.data.packages as {
      id: number;
      bought: boolean;
      orderStatus: string | null;
      qualified: boolean;
      openable: boolean;
      availableFrom: string | null;
    }[];
    const [p0, p1, p2, p3, , , p6, p7, p8, p9] = pk as number[];
    expect(ids(packages)).toEqual([p3, p2, p1, p0, p9, p8, p7, p6]);
    expect(ids(packages)).not.toContain(hiddenPackage);
    const byId = new Map(packages.map((p) => [p.id, p]));
    expect(byId.get(p0 as number)).toMatchObject({
      bought: true,
      orderStatus: "paid",
      qualified: true,
      openable: true,
      availableFrom: null,
    });
    expect(byId.get(p1 as number)).toMatchObject({
      bought: true,
      orderStatus: "canceled",
      qualified: false,
      openable: false,
    });
    expect(byId.get(p2 as number)).toMatchObject({
      orderStatus: "paid",
      qualified: true,
      availableFrom: relDay(5),
      openable: false,
    });
    expect(byId.get(p3 as number)).toMatchObject({ orderStatus: "paid", qualified: true });
    expect(byId.get(p9 as number)).toMatchObject({ bought: false, orderStatus: null, qualified: false });
  });
});

describe("overview with more coming events than fit", () => {
  const s = useApp();

  it("keeps a running event the visitor has a ticket for when six newer coming ones are created", async () => {
    const db = s.t.db.db;
    const visitor = await createUser(db);
    const running = await createCongress(db, {
      firstDay: relDay(-1),
      lastDay: relDay(1),
      digistoreIdTicket: 630001,
      createdAt: new Date(Date.now() - 60_000),
    });
    await ticketOrder(db, visitor.id, running.id, "paid");
    await participate(db, visitor.id, running.id);
    const own = await createCongress(db, { firstDay: relDay(90), lastDay: null });
    await participate(db, visitor.id, own.id);
    const inDays: Record<number, number> = {};
    for (const days of [40, 3, 20, 5, 60, 10, 30]) {
      inDays[days] = (await createCongress(db, { firstDay: relDay(days), lastDay: null })).id;
    }

    const token = await s.t.tokenFor(visitor.id);
    const mine = await trpcQuery(s.t, "congress.getOverview", undefined, { token });
    // the running one and the visitor's own stay; the four coming ones that start next fill the six; the
    // running one first
    expect(ids(mine.data.congresses)).toEqual([
      running.id,
      own.id,
      inDays[20],
      inDays[10],
      inDays[5],
      inDays[3],
    ]);
    const answer = await rest(s.t, "GET", "/api/congress/", visitor.id);
    expect(ids(answer.json())).toEqual(ids(mine.data.congresses));

    // somebody who takes part in neither: the running one stays, the five coming ones that start next follow
    const other = await trpcQuery(s.t, "congress.getOverview", undefined, {
      token: await s.t.tokenFor((await createUser(db)).id),
    });
    expect(ids(other.data.congresses)).toEqual([
      running.id,
      inDays[30],
      inDays[20],
      inDays[10],
      inDays[5],
      inDays[3],
    ]);
  });
});

describe("overview cache", () => {
  // a long cache time: only admin writes and a new day may change what the overview shows
  const s = useApp(() => ({ CATALOGUE_CACHE_MS: "600000" }));

  it("keeps the shared lists until an admin write, which shows the change at once", async () => {
    const db = s.t.db.db;
    const visitor = await createUser(db);
    const admin = await createUser(db, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const first = await createCongress(db, { firstDay: relDay(1), lastDay: relDay(2) });
    const token = await s.t.tokenFor(visitor.id);
    const titles = async () =>
      (
        (await trpcQuery(s.t, "congress.getOverview", undefined, { token })).data.congresses as {
          id: number;
        }[]
      ).map((e) => e.id);
    expect(await titles()).toEqual([first.id]);

    // written past the admin procedures (as another instance would): not seen while cached
    const second = await createCongress(db, { firstDay: relDay(1), lastDay: relDay(3) });
    expect(await titles()).toEqual([first.id]);
    // the visitor's own state is never cached
    await participate(db, visitor.id, first.id);
    const mine = await trpcQuery(s.t, "congress.getOverview", undefined, { token });
    expect(mine.data.congresses[0].currentUserParticipating).toBe(true);

    const saved = await trpcMutation(
      s.t,
      "admin.congresses.save",
      {
        title: "Neu vom Team",
        description: "Beschreibung",
        visible: true,
        firstCongressDay: { date: relDay(2) },
        lastCongressDay: { date: relDay(2) },
      },
      { token: await s.t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]) },
    );
    expect(saved.status, saved.body).toBe(200);
    const ids = await titles();
    expect(ids).toContain(second.id);
    expect(ids).toHaveLength(3);
  });
});

describe("event content", () => {
  const s = useApp(() => ({ STAFF_EMAILS: "staff@example.com" }));
  let user: typeof schema.users.$inferSelect;
  let stranger: typeof schema.users.$inferSelect;
  let staff: typeof schema.users.$inferSelect;
  const c: Record<string, number> = {};
  const url = {
    always: videoUrl(),
    today: videoUrl(),
    tomorrow: videoUrl(),
    ticketed: videoUrl(),
    hidden: videoUrl(),
    past: videoUrl(),
  };

  const content = async (congressId: number | undefined, userId: number) =>
    trpcQuery(s.t, "congress.getContent", { congressId }, { token: await s.t.tokenFor(userId) });

  beforeAll(async () => {
    const db = s.t.db.db;
    user = await createUser(db);
    stranger = await createUser(db);
    staff = await createUser(db, { email: "staff@example.com" });
    c.invisiblePast = (
      await createCongress(db, { visible: false, firstDay: relDay(-5), lastDay: relDay(-3) })
    ).id;
    c.past = (await createCongress(db, { firstDay: relDay(-5), lastDay: relDay(-3) })).id;
    c.future = (await createCongress(db, { firstDay: relDay(2), lastDay: relDay(4) })).id;
    c.running = (await createCongress(db, { firstDay: relDay(-1), lastDay: relDay(1) })).id;
    c.ticketed = (
      await createCongress(db, { firstDay: relDay(-1), lastDay: relDay(1), digistoreIdTicket: 800001 })
    ).id;
    await createContent(db, c.invisiblePast, [{ urls: [url.hidden] }]);
    await createContent(db, c.past, [{ urls: [url.past] }]);
    await createContent(db, c.running, [
      { name: "Tag 1", urls: [url.always] },
      { name: "Tag 2", exclusive_date: germanDay(today()), urls: [url.today] },
      { name: "Tag 3", exclusive_date: germanDay(relDay(1)), urls: [url.tomorrow] },
    ]);
    await createContent(db, c.ticketed, [{ urls: [url.ticketed] }]);
    // the later checks would fail too: the reason shows which check came first
    await participate(db, user.id, c.invisiblePast);
    await participate(db, user.id, c.running);
    await participate(db, user.id, c.ticketed);
  });

  it("answers 404 with congressNotFound for an unknown event: the spec's title, a detail that says what to do", async () => {
    const res = await content(987654, user.id);
    expect(res.status).toBe(404);
    expect(res.error?.title).toBe("Kongress nicht gefunden");
    expect(res.error?.detail).toBe(REFUSALS.congressNotFound.detail);
    expect(res.error?.detail).not.toBe(res.error?.title);
  });

  it("answers a hidden event exactly as an unknown one (404, congressNotFound), so ids do not reveal it", async () => {
    const invisible = await content(c.invisiblePast, user.id);
    const unknown = await content(987654, user.id);
    expect(invisible.status).toBe(404);
    expect(invisible.error).toEqual(unknown.error);
    expect(invisible.error?.title).toBe(MSG.congressNotFound);
    expect(invisible.body).not.toContain(url.hidden);
  });

  it("checks visibility, then past, then not started, then participation", async () => {
    const invisible = await content(c.invisiblePast, user.id);
    expect(invisible.status).toBe(404);
    expect(invisible.body).not.toContain(url.hidden);

    const past = await content(c.past, user.id);
    expect(past.status).toBe(403);
    expect(past.error?.reason).toBe("past");
    expect(past.error?.detail).toBe(MSG.congressOver);
    expect(past.body).not.toContain(url.past);

    const future = await content(c.future, user.id);
    expect(future.status).toBe(403);
    expect(future.error?.reason).toBe("not-started");
    expect(future.error?.detail).toBe(MSG.congressNotStarted);

    const notParticipating = await content(c.running, stranger.id);
    expect(notParticipating.status).toBe(403);
    expect(notParticipating.error?.reason).toBe("not-participating");
    expect(notParticipating.error?.detail).toBe(MSG.notParticipating);
    for (const u of [url.always, url.today, url.tomorrow]) {
      expect(notParticipating.body).not.toContain(u);
    }
  });

  it("gives a participant of a running free event the days visible today, without tomorrow's day", async () => {
    const res = await content(c.running, user.id);
    expect(res.status).toBe(200);
    expect(res.data.congress.id).toBe(c.running);
    const days = res.data.days as { name: string; videos: { url: string; embedUrl: string | null }[] }[];
    expect(days.map((d) => d.name)).toEqual(["Tag 1", "Tag 2"]);
    expect(days.flatMap((d) => d.videos.map((v) => v.url))).toEqual([url.always, url.today]);
    expect(days[0]?.videos[0]?.embedUrl).toContain("dnt=1");
    expect(res.body).not.toContain(url.tomorrow);
    expect(res.body).not.toContain(url.tomorrow.replace(/^.*\//, ""));
  });

  it("lets a participant of a ticketed event in only with a paid ticket order", async () => {
    await ticketOrder(s.t.db.db, user.id, c.ticketed as number, "canceled");
    const unpaid = await content(c.ticketed, user.id);
    expect(unpaid.status).toBe(403);
    expect(unpaid.error?.reason).toBe("not-participating");
    expect(unpaid.body).not.toContain(url.ticketed);

    await ticketOrder(s.t.db.db, user.id, c.ticketed as number, "paid");
    const paid = await content(c.ticketed, user.id);
    expect(paid.status).toBe(200);
    expect(paid.body).toContain(url.ticketed);
  });

  it("lets staff bypass every check and see days dated in the future", async () => {
    for (const [id, expected] of [
      [c.invisiblePast, url.hidden],
      [c.past, url.past],
      [c.running, url.tomorrow],
    ] as const) {
      const res = await content(id, staff.id);
      expect(res.status).toBe(200);
      expect(res.body).toContain(expected);
    }
    const future = await content(c.future, staff.id);
    expect(future.status).toBe(200);
    const running = await content(c.running, staff.id);
    expect((running.data.days as { name: string }[]).map((d) => d.name)).toEqual(["Tag 1", "Tag 2", "Tag 3"]);
  });
});

describe("participation", () => {
  const s = useApp();
  let user: typeof schema.users.$inferSelect;
  let other: typeof schema.users.$inferSelect;
  const c: Record<string, number> = {};

  const rowsOf = (userId: number, congressId: number) =>
    s.t.db.db
      .select()
      .from(schema.participations)
      .where(and(eq(schema.participations.userId, userId), eq(schema.participations.congressId, congressId)));

  const outboxOf = (userId: number) =>
    s.t.db.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.userId, userId));

  beforeAll(async () => {
    const db = s.t.db.db;
    user = await createUser(db);
    other = await createUser(db);
    c.free = (await createCongress(db)).id;
    c.free2 = (await createCongress(db, { firstDay: relDay(3), lastDay: relDay(4) })).id;
    c.invisible = (await createCongress(db, { visible: false })).id;
    c.ticketed = (await createCongress(db, { digistoreIdTicketAndPackage: 800002 })).id;
  });

  it("creates a participation for a free visible event (multipart) with 201", async () => {
    const res = await rest(
      s.t,
      "POST",
      "/api/participation/",
      user.id,
      multipart({ congressId: String(c.free) }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().congress.id).toBe(c.free);
    expect(await rowsOf(user.id, c.free as number)).toHaveLength(1);
    const mails = await outboxOf(user.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      templateName: "participation-confirmation",
      toEmail: user.email,
      congressId: c.free,
      idempotencyKey: `participation:${res.json().id}`,
      variables: {
        congressTitle: res.json().congress.title,
        userFullName: `${user.firstname} ${user.lastname}`,
      },
    });
  });

  it("answers 409 alreadyParticipating the second time (JSON body)", async () => {
    const res = await rest(s.t, "POST", "/api/participation/", user.id, {
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ congressId: c.free }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      title: MSG.alreadyParticipating,
      detail: REFUSALS.alreadyParticipating.detail,
    });
    expect(res.json().detail).not.toBe(res.json().title);
    expect(await rowsOf(user.id, c.free as number)).toHaveLength(1);
    expect(await outboxOf(user.id)).toHaveLength(1);
  });

  it("answers 404 unknownCongress for an unknown or invisible event", async () => {
    for (const congressId of [987654, c.invisible as number]) {
      const res = await rest(
        s.t,
        "POST",
        "/api/participation",
        user.id,
        multipart({ congressId: String(congressId) }),
      );
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ title: MSG.unknownCongress, detail: REFUSALS.unknownCongress.detail });
      expect(res.json().detail).not.toBe(res.json().title);
    }
    expect(await rowsOf(user.id, c.invisible as number)).toHaveLength(0);
  });

  it("refuses a ticketed event with 403 and creates no participation", async () => {
    const res = await rest(
      s.t,
      "POST",
      "/api/participation",
      user.id,
      multipart({ congressId: String(c.ticketed) }),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(MSG.ticketRequired);
    expect(await rowsOf(user.id, c.ticketed as number)).toHaveLength(0);
    expect((await outboxOf(user.id)).map((m) => m.congressId)).not.toContain(c.ticketed);
  });

  it("answers 404 for another user's participation and leaves it alone", async () => {
    const theirs = await participate(s.t.db.db, other.id, c.free2 as number);
    const res = await rest(s.t, "DELETE", `/api/participation/${theirs}`, user.id);
    expect(res.statusCode).toBe(404);
    expect(await rowsOf(other.id, c.free2 as number)).toHaveLength(1);
  });

  it("cancels the own free participation and answers the remaining list", async () => {
    const keep = await participate(s.t.db.db, user.id, c.free2 as number);
    const [own] = await rowsOf(user.id, c.free as number);
    const res = await rest(s.t, "DELETE", `/api/participation/${own?.id}`, user.id);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: number; congress: { id: number } }[];
    expect(list.map((p) => [p.id, p.congress.id])).toEqual([[keep, c.free2]]);
    expect(await rowsOf(user.id, c.free as number)).toHaveLength(0);
  });

  it("refuses to cancel a ticketed event's participation with 403", async () => {
    const id = await participate(s.t.db.db, user.id, c.ticketed as number);
    const res = await rest(s.t, "DELETE", `/api/participation/${id}`, user.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(MSG.participationCancelTicketed);
    expect(await rowsOf(user.id, c.ticketed as number)).toHaveLength(1);
  });
});

describe("packages", () => {
  const s = useApp();
  let user: typeof schema.users.$inferSelect;
  const urls = [videoUrl(), videoUrl()];
  const p: Record<string, number> = {};

  const page = async (id: number | undefined) => {
    const res = await rest(s.t, "GET", `/api/congress-package/is-user-qualified/${id}`, user.id);
    return { res, body: res.json() };
  };
  const expectNoVideos = (body: string) => {
    for (const u of urls) {
      expect(body).not.toContain(u);
    }
  };

  beforeAll(async () => {
    const db = s.t.db.db;
    user = await createUser(db);
    const congress = await createCongress(db, { firstDay: relDay(-20), lastDay: relDay(-18) });
    await createContent(db, congress.id, [{ urls }]);
    p.none = (await createPackage(db, congress.id)).id;
    p.paid = (await createPackage(db, congress.id)).id;
    p.canceled = (await createPackage(db, congress.id)).id;
    p.future = (await createPackage(db, congress.id, { availabilityDate: relDay(3) })).id;
    p.cross = (
      await createPackage(db, congress.id, {
        extraParameters: {
          crosssellDescription: "Passend dazu: das Buch",
          crosssellLink: "https://shop.example.test/buch",
          voucher: "V1",
        },
      })
    ).id;
    await packageOrder(db, user.id, p.paid, "paid");
    await packageOrder(db, user.id, p.canceled, "canceled");
    await packageOrder(db, user.id, p.future, "paid");
  });

  it("is not qualified without an order and sends no video address", async () => {
    const { res, body } = await page(p.none);
    expect(res.statusCode).toBe(200);
    expect(body.isQualified).toBe(false);
    expect(body.packageData.id).toBe(p.none);
    expect(body.packageData.contents).toEqual([]);
    expectNoVideos(res.body);
  });

  it("sends the contents for a paid order", async () => {
    const { res, body } = await page(p.paid);
    expect(res.statusCode).toBe(200);
    expect(body.isQualified).toBe(true);
    expect(body.notice).toBeNull();
    const videos = (body.packageData.contents as { videos: { url: string }[] }[]).flatMap((d) =>
      d.videos.map((v) => v.url),
    );
    expect(videos).toEqual(urls);
  });

  it("is not qualified with a canceled order only", async () => {
    const { res, body } = await page(p.canceled);
    expect(body.isQualified).toBe(false);
    expect(body.packageData.contents).toEqual([]);
    expectNoVideos(res.body);
  });

  it("is qualified but sends no contents before the availability date, with a notice", async () => {
    const { res, body } = await page(p.future);
    expect(body.isQualified).toBe(true);
    expect(body.packageData.contents).toEqual([]);
    expect(body.packageData.availableFrom).toBe(relDay(3));
    expect(body.notice).toBe(fillMessage(MSG.packageNotAvailableYet, { date: germanDay(relDay(3)) }));
    expectNoVideos(res.body);
  });

  it("answers 404 with the default error title for an unknown package, and says it is missing", async () => {
    const { res, body } = await page(987654);
    expect(res.statusCode).toBe(404);
    expect(body.title).toBe(MSG.defaultErrorTitle);
    expect(body.detail).toBe(REFUSALS.packageNotFound.detail);
    expect(body.detail).not.toBe(MSG.defaultErrorDetail);
  });

  it("answers one package with its crosssell on GET /api/congress-package/{id}", async () => {
    const res = await rest(s.t, "GET", `/api/congress-package/${p.cross}`, user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.cross,
      crosssell: { description: "Passend dazu: das Buch", link: "https://shop.example.test/buch" },
    });
    expectNoVideos(res.body);
    const plain = await rest(s.t, "GET", `/api/congress-package/${p.none}`, user.id);
    expect(plain.json().crosssell).toBeNull();
    const unknown = await rest(s.t, "GET", "/api/congress-package/987654", user.id);
    expect(unknown.statusCode).toBe(404);
  });

  it.each(["0", "-1", "1.5", "abc", "2147483648"])(
    "refuses the path id %s with the spec's {title, detail}, before looking anything up",
    async (id) => {
      for (const url of [`/api/congress-package/${id}`, `/api/congress/${id}`, `/api/participation/${id}`]) {
        const res = await rest(s.t, url.startsWith("/api/participation") ? "DELETE" : "GET", url, user.id);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ title: MSG.validationTitle, detail: expect.any(String) });
      }
    },
  );

  it("lists the packages on GET /api/congress-package, the user's own first", async () => {
    const res = await rest(s.t, "GET", "/api/congress-package", user.id);
    expect(res.statusCode).toBe(200);
    expect(ids(res.json())).toEqual([p.future, p.canceled, p.paid, p.cross, p.none]);
    expectNoVideos(res.body);
  });
});

describe("gated pages", () => {
  const deathActiveFrom = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
  deathActiveFrom.setSeconds(0, 0);
  const couplePath = "/pt-test-path-123";
  const deathPath = "/tt-test-path-456";
  const s = useApp(() => ({
    GATED_PATH_COUPLE_THERAPY: couplePath,
    GATED_PASSWORD_COUPLE_THERAPY: "Geheim-Passwort",
    GATED_PATH_DEATH_CONGRESS: deathPath,
    GATED_PASSWORD_DEATH_CONGRESS: "Tod-Passwort",
    DEATH_CONGRESS_ACTIVE_FROM: deathActiveFrom.toISOString(),
    STAFF_EMAILS: "staff@example.com",
  }));
  const coupleUrl = videoUrl();
  const deathUrl = videoUrl();
  let staff: typeof schema.users.$inferSelect;

  const call = async (
    kind: "status" | "unlock" | "page",
    userId: number,
    input: Record<string, unknown>,
    ip = "10.0.0.1",
  ) => {
    const options = { token: await s.t.tokenFor(userId), ip };
    if (kind === "unlock") {
      return trpcMutation(s.t, "gated.unlock", input, options);
    }
    return trpcQuery(s.t, kind === "status" ? "gated.getStatus" : "packages.getPage", input, options);
  };

  beforeAll(async () => {
    const db = s.t.db.db;
    staff = await createUser(db, { email: "staff@example.com" });
    const couple = await createCongress(db, {
      visible: false,
      firstDay: relDay(-400),
      lastDay: relDay(-398),
    });
    const death = await createCongress(db, { visible: false, firstDay: relDay(-300), lastDay: relDay(-299) });
    await createContent(db, couple.id, [{ urls: [coupleUrl] }]);
    await createContent(db, death.id, [{ urls: [deathUrl] }]);
    await createPackage(db, couple.id, { id: 1 });
    await createPackage(db, couple.id, { id: 2 });
    await createPackage(db, death.id, { id: 3 });
    await syncPackageSequence(db);
  });

  it("resolves the configured paths anonymously and answers 404 for others", async () => {
    const unknown = await trpcQuery(s.t, "gated.resolve", { path: "/gibt-es-nicht-123" });
    expect(unknown.status).toBe(404);
    const couple = await trpcQuery(s.t, "gated.resolve", { path: couplePath });
    expect(couple.status).toBe(200);
    expect(couple.data).toEqual({ kind: "couple-therapy" });
    const trailingSlash = await trpcQuery(s.t, "gated.resolve", { path: `${couplePath}/` });
    expect(trailingSlash.data).toEqual({ kind: "couple-therapy" });
    const death = await trpcQuery(s.t, "gated.resolve", { path: deathPath });
    expect(death.data).toEqual({ kind: "death-congress" });
  });

  it("needs a login for status and unlock", async () => {
    const status = await trpcQuery(s.t, "gated.getStatus", { path: couplePath });
    expect(status.status).toBe(401);
    expect(status.error?.title).toBe(MSG.unauthorizedTitle);
    const unlock = await trpcMutation(s.t, "gated.unlock", { path: couplePath, password: "Geheim-Passwort" });
    expect(unlock.status).toBe(401);
  });

  it("refuses a wrong password (also in another case) and keeps the package closed", async () => {
    const user = await createUser(s.t.db.db);
    for (const password of ["falsch", "geheim-passwort", "GEHEIM-PASSWORT"]) {
      const res = await call("unlock", user.id, { path: couplePath, password }, "10.0.1.1");
      expect(res.status).toBe(403);
      expect(res.error).toMatchObject({
        title: MSG.wrongPassword,
        detail: REFUSALS.wrongPackagePassword.detail,
      });
      expect(res.error?.detail).not.toBe(res.error?.title);
    }
    const page = await call("page", user.id, { packageId: 1 });
    expect(page.data.isQualified).toBe(false);
    expect(page.data.packageData.contents).toEqual([]);
    expect(page.body).not.toContain(coupleUrl);
    const status = await call("status", user.id, { path: couplePath });
    expect(status.data).toMatchObject({ kind: "couple-therapy", packageId: 1, unlocked: false });
  });

  it("unlocks package 1 with the right password for this account only", async () => {
    const user = await createUser(s.t.db.db);
    const bystander = await createUser(s.t.db.db);
    const res = await call("unlock", user.id, { path: couplePath, password: "Geheim-Passwort" }, "10.0.1.2");
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ packageId: 1 });
    const page = await call("page", user.id, { packageId: 1 });
    expect(page.data.isQualified).toBe(true);
    expect(page.body).toContain(coupleUrl);
    expect((await call("status", user.id, { path: couplePath })).data.unlocked).toBe(true);
    const theirs = await call("page", bystander.id, { packageId: 1 });
    expect(theirs.data.isQualified).toBe(false);
    expect(theirs.body).not.toContain(coupleUrl);
    // the other gated package stays closed
    expect((await call("page", user.id, { packageId: 2 })).data.isQualified).toBe(false);
  });

  it("answers 429 on the 11th attempt of one account, even from changing addresses", async () => {
    const user = await createUser(s.t.db.db);
    for (let i = 1; i <= 10; i += 1) {
      const res = await call("unlock", user.id, { path: couplePath, password: `falsch-${i}` }, `10.0.2.${i}`);
      expect(res.status).toBe(403);
    }
    const eleventh = await call(
      "unlock",
      user.id,
      { path: couplePath, password: "Geheim-Passwort" },
      "10.0.2.11",
    );
    expect(eleventh.status).toBe(429);
    expect(eleventh.error?.title).toBe(MSG.tooManyRequestsTitle);
    expect((await call("page", user.id, { packageId: 1 })).data.isQualified).toBe(false);
  });

  it("keeps the death-congress page closed before its date, except for staff", async () => {
    const user = await createUser(s.t.db.db);
    const status = await call("status", user.id, { path: deathPath });
    expect(status.status).toBe(200);
    expect(status.data).toMatchObject({ kind: "death-congress", packageId: 3, unlocked: false });
    expect(status.data.closedNotice).toBe(
      fillMessage(MSG.gatedNotActiveYet, { date: `${formatGermanDateTime(deathActiveFrom)} Uhr` }),
    );
    const unlock = await call("unlock", user.id, { path: deathPath, password: "Tod-Passwort" }, "10.0.3.1");
    expect(unlock.status).toBe(403);
    expect(unlock.error?.detail).toBe(status.data.closedNotice);
    const page = await call("page", user.id, { packageId: 3 });
    expect(page.data.isQualified).toBe(false);
    expect(page.body).not.toContain(deathUrl);

    const staffStatus = await call("status", staff.id, { path: deathPath });
    expect(staffStatus.data.closedNotice).toBeNull();
    const staffUnlock = await call(
      "unlock",
      staff.id,
      { path: deathPath, password: "Tod-Passwort" },
      "10.0.4.1",
    );
    expect(staffUnlock.status).toBe(200);
    expect(staffUnlock.data).toEqual({ packageId: 3 });
    const staffPage = await call("page", staff.id, { packageId: 3 });
    expect(staffPage.data.isQualified).toBe(true);
    expect(staffPage.body).toContain(deathUrl);
  });
});

describe("checkout", () => {
  const productUrl = "https://shop.example.test/product/";
  const s = useApp(() => ({ DIGISTORE_PRODUCT_URL: productUrl }));
  let user: typeof schema.users.$inferSelect;
  let pkgId: number;
  let free: number;
  let ticketed: number;

  const checkout = async (category: string, id: number) =>
    trpcQuery(s.t, "checkout.getUrl", { category, id }, { token: await s.t.tokenFor(user.id) });

  beforeAll(async () => {
    const db = s.t.db.db;
    user = await createUser(db, { firstname: "Jörg", lastname: "Müller & Söhne" });
    const congress = await createCongress(db);
    pkgId = (
      await createPackage(db, congress.id, {
        externalId: 555001,
        extraParameters: {
          voucher: "HERBST20",
          crosssellDescription: "Passend dazu",
          crosssellLink: "https://example.test/x",
        },
      })
    ).id;
    free = (await createCongress(db, { firstDay: relDay(3), lastDay: relDay(4) })).id;
    ticketed = (
      await createCongress(db, {
        firstDay: relDay(3),
        lastDay: relDay(4),
        digistoreIdTicket: 600001,
        digistoreIdTicketAndPackage: 600002,
      })
    ).id;
  });

  it("builds the package checkout address with buyer data, custom and voucher", async () => {
    const res = await checkout("pac", pkgId);
    expect(res.status).toBe(200);
    const url: string = res.data.url;
    expect(url.startsWith(`${productUrl}555001?`)).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get("email")).toBe(user.email);
    expect(params.get("first_name")).toBe("Jörg");
    expect(params.get("last_name")).toBe("Müller & Söhne");
    expect(params.get("custom")).toBe(`uid-${user.digistoreHash}|pid-${pkgId}|cat-pac`);
    expect(params.get("voucher")).toBe("HERBST20");
    expect(params.has("crosssellDescription")).toBe(false);
    expect(params.has("crosssellLink")).toBe(false);
  });

  it("refuses a ticket for an event without ticket id with reason not-offered", async () => {
    const res = await checkout("tic", free);
    expect(res.status).toBe(403);
    expect(res.error?.reason).toBe("not-offered");
  });

  it("uses the event's ticket product ids for tickets", async () => {
    const tic = await checkout("tic", ticketed);
    expect(tic.status).toBe(200);
    expect(tic.data.url.startsWith(`${productUrl}600001?`)).toBe(true);
    expect(new URL(tic.data.url).searchParams.get("custom")).toBe(
      `uid-${user.digistoreHash}|pid-${ticketed}|cat-tic`,
    );
    const ticpac = await checkout("ticpac", ticketed);
    expect(ticpac.data.url.startsWith(`${productUrl}600002?`)).toBe(true);
  });

  it("answers 404 for an unknown package", async () => {
    const res = await checkout("pac", 987654);
    expect(res.status).toBe(404);
  });

  it("tells the return from the checkout whether the product exists, and counts no order its notifications did not make", async () => {
    const state = async (category: string, id: number) =>
      trpcQuery(s.t, "checkout.getReturnState", { category, id }, { token: await s.t.tokenFor(user.id) });
    const unknown = await state("ticpac", 999_999);
    expect(unknown.status).toBe(404);
    expect(unknown.error?.detail).toBe(MSG.productNotFound);
    // an event that sells no ticket-plus-package: nothing can have been bought
    expect((await state("ticpac", free)).status).toBe(404);

    const before = await state("tic", ticketed);
    expect(before.data).toEqual({
      name: expect.any(String),
      paid: false,
      unlocked: { ticket: false, packages: [] },
      eventHasPackage: false,
    });
    // an order without a payment notification of this purchase (an admin's, say) is not what it unlocked
    // (the notifications themselves: commerce.int.test.ts, "checkout return")
    await ticketOrder(s.t.db.db, user.id, ticketed, "paid");
    expect((await state("tic", ticketed)).data.paid).toBe(false);
    expect((await state("pac", pkgId)).data.paid).toBe(false);
  });

  describe("never sells twice", () => {
    const asUser = async (who: { id: number }, category: string, id: number) =>
      trpcQuery(s.t, "checkout.getUrl", { category, id }, { token: await s.t.tokenFor(who.id) });
    const ticketedCongress = async (packages: number) => {
      const congress = await createCongress(s.t.db.db, {
        firstDay: relDay(3),
        lastDay: relDay(4),
        digistoreIdTicket: 610001,
        digistoreIdTicketAndPackage: 610002,
      });
      const pkgs = [];
      for (let i = 0; i < packages; i += 1) {
        pkgs.push(await createPackage(s.t.db.db, congress.id));
      }
      return { congress, pkgs };
    };

    it("refuses a package the visitor has paid for, with a German message and a link to it", async () => {
      const buyer = await createUser(s.t.db.db);
      const pkg = await createPackage(s.t.db.db, (await createCongress(s.t.db.db)).id, {
        name: "Paket Eins",
      });
      await packageOrder(s.t.db.db, buyer.id, pkg.id, "paid");
      const res = await asUser(buyer, "pac", pkg.id);
      expect(res.status).toBe(409);
      expect(res.error?.reason).toBe("already-bought");
      expect(res.error?.title).toBe(MSG.alreadyBoughtTitle);
      expect(res.error?.detail).toBe(fillMessage(MSG.alreadyBoughtPackage, { name: "Paket Eins" }));
      expect(res.data).toBeUndefined();
      expect(JSON.parse(res.body).error.json.data.links).toEqual([
        { label: "Zum Kongresspaket", href: `/congress-package/${pkg.id}` },
      ]);
    });

    it("sells again after a cancelled order, and another user's paid order blocks nobody", async () => {
      const buyer = await createUser(s.t.db.db);
      const other = await createUser(s.t.db.db);
      const pkg = await createPackage(s.t.db.db, (await createCongress(s.t.db.db)).id);
      await packageOrder(s.t.db.db, buyer.id, pkg.id, "canceled");
      await packageOrder(s.t.db.db, other.id, pkg.id, "paid");
      const res = await asUser(buyer, "pac", pkg.id);
      expect(res.status).toBe(200);
      expect(new URL(res.data.url).searchParams.get("custom")).toBe(
        `uid-${buyer.digistoreHash}|pid-${pkg.id}|cat-pac`,
      );

      const { congress } = await ticketedCongress(1);
      await ticketOrder(s.t.db.db, buyer.id, congress.id, "canceled");
      await ticketOrder(s.t.db.db, other.id, congress.id, "paid");
      expect((await asUser(buyer, "tic", congress.id)).status).toBe(200);
      expect((await asUser(buyer, "ticpac", congress.id)).status).toBe(200);
    });

    it("refuses a second ticket, and offers the package alone instead of ticket and package", async () => {
      const buyer = await createUser(s.t.db.db);
      const { congress, pkgs } = await ticketedCongress(1);
      const [pkg] = pkgs as [typeof schema.congressPackages.$inferSelect];
      await ticketOrder(s.t.db.db, buyer.id, congress.id, "paid");

      const tic = await asUser(buyer, "tic", congress.id);
      expect(tic.status).toBe(409);
      expect(tic.error?.detail).toBe(fillMessage(MSG.alreadyBoughtTicket, { name: congress.title }));
      expect(JSON.parse(tic.body).error.json.data.links).toEqual([{ label: "Zur Übersicht", href: "/" }]);

      const ticpac = await asUser(buyer, "ticpac", congress.id);
      expect(ticpac.status).toBe(409);
      expect(ticpac.error?.detail).toBe(
        fillMessage(MSG.alreadyBoughtTicketOffersPackage, { name: congress.title }),
      );
      expect(JSON.parse(ticpac.body).error.json.data.links).toEqual([
        { label: "Zur Übersicht", href: "/" },
        { label: `„${pkg.name}“ kaufen`, href: `/congress-package-purchase/${pkg.id}` },
      ]);
      // the offered half sells
      expect((await asUser(buyer, "pac", pkg.id)).status).toBe(200);

      // with the package paid as well, nothing of the event is sold again
      await packageOrder(s.t.db.db, buyer.id, pkg.id, "paid");
      const both = await asUser(buyer, "ticpac", congress.id);
      expect(both.error?.detail).toBe(fillMessage(MSG.alreadyBoughtTicketPackage, { name: congress.title }));
      expect(JSON.parse(both.body).error.json.data.links).toEqual([
        { label: "Zur Übersicht", href: "/" },
        { label: "Zum Kongresspaket", href: `/congress-package/${pkg.id}` },
      ]);
    });

    it("ticket and package of an event without a package, ticket paid: says the ticket is owned and no package exists", async () => {
      const buyer = await createUser(s.t.db.db);
      const { congress } = await ticketedCongress(0);
      await ticketOrder(s.t.db.db, buyer.id, congress.id, "paid");
      const ticpac = await asUser(buyer, "ticpac", congress.id);
      expect(ticpac.status).toBe(409);
      expect(ticpac.error?.reason).toBe("already-bought");
      expect(ticpac.error?.detail).toBe(
        `Ihr Ticket für „${congress.title}“ haben Sie bereits gekauft. Ein Kongresspaket gibt es zu dieser Veranstaltung nicht.`,
      );
      expect(JSON.parse(ticpac.body).error.json.data.links).toEqual([{ label: "Zur Übersicht", href: "/" }]);
    });

    it("tells the participation page whether the event has a package (ticket and package is offered only then)", async () => {
      const { congress } = await ticketedCongress(0);
      const get = async () =>
        trpcQuery(s.t, "congress.get", { congressId: congress.id }, { token: await s.t.tokenFor(user.id) });
      expect((await get()).data).toMatchObject({ id: congress.id, hasPackage: false });
      await createPackage(s.t.db.db, congress.id);
      expect((await get()).data).toMatchObject({ id: congress.id, hasPackage: true });
    });

    it("links a bought ticket of a running event to its videos", async () => {
      const buyer = await createUser(s.t.db.db);
      const running = await createCongress(s.t.db.db, { digistoreIdTicket: 620001 });
      await ticketOrder(s.t.db.db, buyer.id, running.id, "paid");
      const res = await asUser(buyer, "tic", running.id);
      expect(res.status).toBe(409);
      expect(JSON.parse(res.body).error.json.data.links).toEqual([
        { label: "Zu den Videos", href: `/congress/${running.id}` },
      ]);
    });

    it("refuses ticket and package when the package is paid, and offers the ticket alone", async () => {
      const buyer = await createUser(s.t.db.db);
      const { congress, pkgs } = await ticketedCongress(1);
      const [pkg] = pkgs as [typeof schema.congressPackages.$inferSelect];
      await packageOrder(s.t.db.db, buyer.id, pkg.id, "paid");
      const ticpac = await asUser(buyer, "ticpac", congress.id);
      expect(ticpac.status).toBe(409);
      expect(ticpac.error?.reason).toBe("already-bought");
      expect(ticpac.error?.detail).toBe(
        fillMessage(MSG.alreadyBoughtPackageOffersTicket, { name: congress.title }),
      );
      expect(JSON.parse(ticpac.body).error.json.data.links).toEqual([
        { label: "Zum Kongresspaket", href: `/congress-package/${pkg.id}` },
        { label: "Ticket kaufen", href: `/congress-ticket-purchase/${congress.id}` },
      ]);
      expect((await asUser(buyer, "tic", congress.id)).status).toBe(200);
    });
  });
});

describe("video preview", () => {
  const jpeg = Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.from("fake-jpeg"),
    Buffer.from([0xff, 0xd9]),
  ]);
  const requests: string[] = [];
  let server: Server;
  let base = "";
  // the fake host must listen before the application learns its address, so no useApp here
  let t: TestApp;
  let user: typeof schema.users.$inferSelect;
  const known = "https://vimeo.com/123456789";
  const knownToo = "https://player.vimeo.com/video/234567891";
  const notVimeo = "https://videos.example.test/talk.mp4";

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      const url = new URL(req.url ?? "/", base);
      if (url.pathname === "/oembed") {
        const id = (url.searchParams.get("url") ?? "").match(/(\d+)$/)?.[1];
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ title: `Vortrag ${id}`, thumbnail_url: `${base}/thumbs/${id}.jpg` }));
      } else if (url.pathname.startsWith("/thumbs/")) {
        res.writeHead(200, { "content-type": "image/jpeg" });
        res.end(jpeg);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({ env: { VIMEO_OEMBED_URL: `${base}/oembed` } });
    user = await createUser(t.db.db);
    const congress = await createCongress(t.db.db);
    await createContent(t.db.db, congress.id, [{ urls: [known, knownToo, notVimeo] }]);
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await t?.close();
  });

  const preview = async (url: string) =>
    trpcQuery(t, "video.getPreview", { url }, { token: await t.tokenFor(user.id) });

  it("fetches title and thumbnail of a video in some content and serves the thumbnail itself", async () => {
    const res = await preview(known);
    expect(res.status).toBe(200);
    const key = createHash("sha256").update(known).digest("hex");
    expect(res.data).toEqual({ title: "Vortrag 123456789", thumbnailUrl: `/uploads/video-previews/${key}` });
    expect(res.data.thumbnailUrl).toMatch(/^\/uploads\/video-previews\/[0-9a-f]{64}$/);
    expect(requests).toHaveLength(2);
    expect(new URL(requests[0] ?? "", base).searchParams.get("url")).toBe(known);

    const image = await t.app.inject(res.data.thumbnailUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");
    expect(Buffer.compare(image.rawPayload, jpeg)).toBe(0);
  });

  it("answers a second call from the cache without asking the host", async () => {
    const before = requests.length;
    const res = await preview(known);
    expect(res.data.title).toBe("Vortrag 123456789");
    expect(requests).toHaveLength(before);
  });

  it("answers nulls without a request for a video in no content or not on the video host", async () => {
    const before = requests.length;
    for (const url of ["https://vimeo.com/987654321", notVimeo]) {
      const res = await preview(url);
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ title: null, thumbnailUrl: null });
    }
    expect(requests).toHaveLength(before);
  });

  it("answers nulls, not 500, when the host is unreachable", async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const res = await preview(knownToo);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ title: null, thumbnailUrl: null });
    const key = createHash("sha256").update(knownToo).digest("hex");
    expect((await t.app.inject(`/uploads/video-previews/${key}`)).statusCode).toBe(404);
  });

  it("needs a login", async () => {
    const res = await trpcQuery(t, "video.getPreview", { url: known });
    expect(res.status).toBe(401);
  });
});

describe("REST without login", () => {
  const s = useApp();

  it("answers 401 with {title, detail} on every visitor path", async () => {
    const calls: [string, string, ReturnType<typeof multipart>?][] = [
      ["GET", "/api/congress/"],
      ["GET", "/api/congress/1"],
      ["POST", "/api/participation/", multipart({ congressId: "1" })],
      ["DELETE", "/api/participation/1"],
      ["GET", "/api/congress-package/is-user-qualified/1"],
      ["GET", "/api/congress-package/1"],
      ["GET", "/api/congress-package"],
    ];
    for (const [method, url, body] of calls) {
      const res = await rest(s.t, method as "GET", url, undefined, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json(), `${method} ${url}`).toEqual({
        title: MSG.unauthorizedTitle,
        detail: MSG.unauthorizedDetail,
      });
    }
  });
});

// after the packages' list above, which counts every package of the database
describe("a package's cross-sell link", () => {
  const s = useApp();

  it("links the cross-sell to a web address or a path of this app, by the form's own rule", async () => {
    const db = s.t.db.db;
    const user = await createUser(db);
    const congress = await createCongress(db, { firstDay: relDay(-20), lastDay: relDay(-18) });
    // stored before the form refused them (or written by hand): the page links none of them
    const cases: [string, string | null][] = [
      ["/congress-package-purchase/5", "/congress-package-purchase/5"],
      ["kongresspaket", null],
      ["//evil.example", null],
      ["/\\evil.example", null],
      ["/\t/evil.example", null],
      ["javascript:alert(1)", null],
      ["data:text/html,x", null],
      [" https://shop.example.test/buch ", "https://shop.example.test/buch"],
    ];
    for (const [stored, shown] of cases) {
      const pkg = await createPackage(db, congress.id, {
        extraParameters: { crosssellDescription: "Passend dazu", crosssellLink: stored },
      });
      const res = await rest(s.t, "GET", `/api/congress-package/${pkg.id}`, user.id);
      expect(res.json().crosssell, stored).toEqual({ description: "Passend dazu", link: shown });
    }
  });
});
