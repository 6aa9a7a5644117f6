/**
 * The visitor's rules stated in days, tested by moving the application's clock (ADR 0099): the data
 * stays as it is, the Berlin day changes at midnight Berlin time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  packageOrder,
  participate,
  syncPackageSequence,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

function useApp(env: Record<string, string> = {}): { t: TestApp } {
  const holder = {} as { t: TestApp };
  beforeAll(async () => {
    holder.t = await createTestApp({ env });
  });
  afterEach(() => {
    holder.t?.clock.reset();
  });
  afterAll(async () => {
    await holder.t?.close();
  });
  return holder;
}

// 10 and 11 January 2030: winter time, Berlin is UTC+1, so the Berlin day begins at 23:00 UTC
const FIRST_DAY = "2030-01-10";
const LAST_DAY = "2030-01-11";

describe("an event's days by the clock", () => {
  const s = useApp();
  const url = videoUrl();
  let userId: number;
  let congressId: number;

  beforeAll(async () => {
    const db = s.t.db.db;
    userId = (await createUser(db)).id;
    congressId = (await createCongress(db, { firstDay: FIRST_DAY, lastDay: LAST_DAY })).id;
    await createContent(db, congressId, [{ urls: [url] }]);
    await participate(db, userId, congressId);
  });

  const content = async () =>
    trpcQuery(s.t, "congress.getContent", { congressId }, { token: await s.t.tokenFor(userId) });

  it("opens the videos at 0:00 Berlin on the first day and closes them after the last day", async () => {
    s.t.clock.set("2030-01-09T22:59:59Z");
    const before = await content();
    expect(before.error?.reason).toBe("not-started");
    expect(before.body).not.toContain(url);

    s.t.clock.set("2030-01-09T23:00:00Z");
    const first = await content();
    expect(first.status).toBe(200);
    expect(first.data.congress.inProgress).toBe(true);
    expect(first.body).toContain(url);

    s.t.clock.set("2030-01-11T22:59:59Z");
    expect((await content()).body).toContain(url);

    s.t.clock.set("2030-01-11T23:00:00Z");
    const after = await content();
    expect(after.error?.reason).toBe("past");
    expect(after.body).not.toContain(url);
  });

  it("takes sign-ups until the last day is over", async () => {
    const late = await createUser(s.t.db.db);
    s.t.clock.set("2030-01-11T23:00:00Z");
    // minted at the clock's time: its 15 minutes run on the clock too (ADR 0144)
    const token = await s.t.tokenFor(late.id);
    const over = await trpcMutation(s.t, "participation.create", { congressId }, { token });
    expect(over.error?.reason).toBe("past");
    s.t.clock.set("2030-01-11T22:59:00Z");
    expect((await trpcMutation(s.t, "participation.create", { congressId }, { token })).status).toBe(200);
  });
});

describe("the overview by the clock, kept answers included", () => {
  // both caches on with long times: only the day may drop a kept answer here
  const s = useApp({ OVERVIEW_CACHE_MS: "600000", CATALOGUE_CACHE_MS: "600000" });

  it("keeps an answer for the clock's Berlin day and shows the next day afresh", async () => {
    const db = s.t.db.db;
    await s.t.app.overviewCacheReady;
    const user = await createUser(db);
    const congress = await createCongress(db, { firstDay: FIRST_DAY, lastDay: LAST_DAY });
    s.t.clock.set("2030-01-11T22:59:59Z");
    const token = await s.t.tokenFor(user.id);
    const overview = async () =>
      (await trpcQuery(s.t, "congress.getOverview", undefined, { token })).data.congresses.map(
        (c: { id: number }) => c.id,
      );

    // the database announces the new event a moment later, and that drops every kept answer once: ask
    // until an answer is kept
    await vi.waitFor(
      async () => {
        expect(await overview()).toContain(congress.id);
        expect(s.t.app.overviewCache.get(user.id, LAST_DAY)).toBeDefined();
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(await overview()).toContain(congress.id);

    // 0:00 in Berlin on 12 January: the event is over, the answer kept for the 11th no longer counts
    s.t.clock.set("2030-01-11T23:00:00Z");
    expect(await overview()).not.toContain(congress.id);
    expect(s.t.app.overviewCache.get(user.id, "2030-01-12")).toBeDefined();
  });
});

describe("a package's availability date by the clock", () => {
  const s = useApp();

  it("opens a paid package at 0:00 Berlin on its availability date", async () => {
    const db = s.t.db.db;
    const url = videoUrl();
    const user = await createUser(db);
    const congress = await createCongress(db, { firstDay: "2030-05-01", lastDay: "2030-05-02" });
    await createContent(db, congress.id, [{ urls: [url] }]);
    // 1 June 2030: summer time, Berlin is UTC+2
    const pkg = await createPackage(db, congress.id, { availabilityDate: "2030-06-01" });
    await packageOrder(db, user.id, pkg.id, "paid");
    s.t.clock.set("2030-05-31T21:59:59Z");
    const token = await s.t.tokenFor(user.id);
    const page = () => trpcQuery(s.t, "packages.getPage", { packageId: pkg.id }, { token });

    const before = await page();
    expect(before.data.packageData).toMatchObject({
      qualified: true,
      openable: false,
      availableFrom: "2030-06-01",
    });
    expect(before.data.notice).toContain("01.06.2030");
    expect(before.body).not.toContain(url);

    s.t.clock.set("2030-05-31T22:00:00Z");
    const open = await page();
    expect(open.data.packageData).toMatchObject({ openable: true, availableFrom: null });
    expect(open.data.notice).toBeNull();
    expect(open.body).toContain(url);
  });
});

describe("the death-congress date by the clock", () => {
  const deathPath = "/tt-clock-path-789";
  // the spec's date: 28 September 2023 00:00 Berlin (the default of DEATH_CONGRESS_ACTIVE_FROM)
  const s = useApp({ GATED_PATH_DEATH_CONGRESS: deathPath, GATED_PASSWORD_DEATH_CONGRESS: "Tod-Passwort" });

  beforeAll(async () => {
    const db = s.t.db.db;
    const congress = await createCongress(db, { visible: false, firstDay: "2023-09-28", lastDay: null });
    await createPackage(db, congress.id, { id: 3 });
    await syncPackageSequence(db);
  });

  it("keeps the page closed until 0:00 Berlin on 28 September 2023", async () => {
    const user = await createUser(s.t.db.db);
    const options = { token: await s.t.tokenFor(user.id), ip: "10.9.0.1" };
    const status = () => trpcQuery(s.t, "gated.getStatus", { path: deathPath }, options);
    const unlock = () =>
      trpcMutation(s.t, "gated.unlock", { path: deathPath, password: "Tod-Passwort" }, options);

    s.t.clock.set("2023-09-27T21:59:59Z");
    const closed = await status();
    expect(closed.data).toMatchObject({ kind: "death-congress", unlocked: false });
    expect(closed.data.closedNotice).toContain("28.09.2023");
    expect((await unlock()).status).toBe(403);

    s.t.clock.set("2023-09-27T22:00:00Z");
    expect((await status()).data.closedNotice).toBeNull();
    expect((await unlock()).data).toEqual({ packageId: 3 });
    expect((await status()).data.unlocked).toBe(true);
  });
});
