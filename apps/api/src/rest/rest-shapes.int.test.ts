import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createPackage,
  createUser,
  multipart,
  participate,
  relDay,
  trpcQuery,
} from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";

// Spec sections 3 and 7: the REST answers carry the spec's entities (ADR 0087).
let t: TestApp;
let adminToken: string;
let visitorId: number;
let visitorToken: string;
beforeAll(async () => {
  t = await createTestApp();
  const callers = await adminAndVisitor(t);
  adminToken = callers.adminToken;
  const visitor = await createUser(t.db.db);
  visitorId = visitor.id;
  visitorToken = await t.tokenFor(visitor.id);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, token: string) =>
  t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

interface SpecCongress {
  id: number;
  firstCongressDay: { date: string };
  lastCongressDay: { date: string } | null;
  participationCount: number;
}

/** The spec's congress: its days as `firstCongressDay.date` / `lastCongressDay.date`, and its participations. */
function expectSpecCongress(body: unknown, expected: { first: string; last: string | null; count: number }) {
  const congress = body as SpecCongress & Record<string, unknown>;
  expect(congress.firstCongressDay).toEqual({ date: expected.first });
  expect(congress.lastCongressDay).toEqual(expected.last === null ? null : { date: expected.last });
  expect(congress.participationCount).toBe(expected.count);
  expect(congress).not.toHaveProperty("firstDay");
  expect(congress).not.toHaveProperty("lastDay");
}

describe("congress objects", () => {
  it("GET /api/congress/ and /api/congress/{id}: visitors and admins get the spec's days and the participation count", async () => {
    const running = await createCongress(t.db.db, { firstDay: relDay(-1), lastDay: relDay(2) });
    const oneDay = await createCongress(t.db.db, { firstDay: relDay(3), lastDay: null });
    await participate(t.db.db, visitorId, running.id);
    await participate(t.db.db, (await createUser(t.db.db)).id, running.id);

    const visitorList = await get("/api/congress/", visitorToken);
    expect(visitorList.statusCode).toBe(200);
    const visible = visitorList.json() as SpecCongress[];
    expectSpecCongress(
      visible.find((c) => c.id === running.id),
      { first: relDay(-1), last: relDay(2), count: 2 },
    );
    expectSpecCongress(
      visible.find((c) => c.id === oneDay.id),
      { first: relDay(3), last: null, count: 0 },
    );

    const one = await get(`/api/congress/${running.id}`, visitorToken);
    expect(one.statusCode).toBe(200);
    expectSpecCongress(one.json(), { first: relDay(-1), last: relDay(2), count: 2 });
    expect(one.json()).toMatchObject({ id: running.id, inProgress: true, currentUserParticipating: true });

    const adminList = (await get("/api/congress/", adminToken)).json() as SpecCongress[];
    expectSpecCongress(
      adminList.find((c) => c.id === running.id),
      { first: relDay(-1), last: relDay(2), count: 2 },
    );
  });

  it("GET /api/congress/: the admin's events carry inProgress, inFuture and inPast as the visitor's do", async () => {
    const running = await createCongress(t.db.db, { firstDay: relDay(-1), lastDay: relDay(2) });
    const future = await createCongress(t.db.db, { firstDay: relDay(3), lastDay: null });
    const past = await createCongress(t.db.db, { firstDay: relDay(-5), lastDay: relDay(-4), visible: false });
    const today = await createCongress(t.db.db, { firstDay: relDay(0), lastDay: null });
    const timing = (list: Array<Record<string, unknown>>, id: number) => {
      const congress = list.find((c) => c.id === id);
      return { inProgress: congress?.inProgress, inFuture: congress?.inFuture, inPast: congress?.inPast };
    };
    const visitorList = (await get("/api/congress/", visitorToken)).json();
    const adminList = (await get("/api/congress/", adminToken)).json();
    for (const congress of [running, future, today]) {
      expect(timing(adminList, congress.id)).toEqual(timing(visitorList, congress.id));
    }
    expect(timing(adminList, running.id)).toEqual({ inProgress: true, inFuture: false, inPast: false });
    expect(timing(adminList, today.id)).toEqual({ inProgress: true, inFuture: false, inPast: false });
    expect(timing(adminList, future.id)).toEqual({ inProgress: false, inFuture: true, inPast: false });
    // a past (and hidden) event only the admin's list has
    expect(timing(adminList, past.id)).toEqual({ inProgress: false, inFuture: false, inPast: true });
  });

  it("POST /api/congress/ takes the spec's days and answers the saved congress in the spec's shape", async () => {
    const congressData = {
      title: `REST-Kongress ${Date.now()}`,
      description: "Zwei Tage.",
      visible: true,
      firstCongressDay: { date: "2026-06-01" },
      lastCongressDay: { date: "2026-06-02" },
      digistoreIdTicket: 0,
      digistoreIdTicketAndPackage: 0,
    };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/congress/",
      headers: { authorization: `Bearer ${adminToken}`, ...multipart({}).headers },
      payload: multipart({ congressData: JSON.stringify(congressData) }).payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecCongress(res.json(), { first: "2026-06-01", last: "2026-06-02", count: 0 });
    expect(res.json()).toMatchObject({ title: congressData.title });
  });
});

describe("lists", () => {
  it("GET /api/congress-package answers the overview's packages (at most 8), like GET /api/congress its events", async () => {
    const congress = await createCongress(t.db.db, { firstDay: relDay(-1), lastDay: relDay(1) });
    for (let i = 0; i < 10; i++) {
      await createPackage(t.db.db, congress.id);
    }
    const overview = await trpcQuery(t, "congress.getOverview", undefined, { token: visitorToken });
    const ids = (list: { id: number }[]) => list.map((item) => item.id);

    const packages = await get("/api/congress-package", visitorToken);
    expect(packages.statusCode).toBe(200);
    expect(ids(packages.json())).toEqual(ids(overview.data.packages));
    expect(ids(packages.json())).toHaveLength(8);
    const congresses = await get("/api/congress/", visitorToken);
    expect(ids(congresses.json())).toEqual(ids(overview.data.congresses));
  });

  it("GET /api/user/ answers a list of users, the page's total in a header", async () => {
    const tag = `Listenprobe${Date.now()}`;
    for (let i = 0; i < 12; i++) {
      await createUser(t.db.db, { lastname: `${tag}${String(i).padStart(2, "0")}` });
    }
    const first = await get(`/api/user/?name=${tag}`, adminToken);
    expect(first.statusCode).toBe(200);
    const users = first.json() as { id: number; lastname: string; email: string }[];
    expect(Array.isArray(users)).toBe(true);
    expect(users.map((u) => u.lastname)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${tag}${String(i).padStart(2, "0")}`),
    );
    expect(first.headers["x-total-count"]).toBe("12");
    const second = (await get(`/api/user/?name=${tag}&page=2`, adminToken)).json() as { lastname: string }[];
    expect(second.map((u) => u.lastname)).toEqual([`${tag}10`, `${tag}11`]);
  });
});
