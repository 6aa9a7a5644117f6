import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { schema } from "@app/db";
import { MSG_FORTBILDUNG, MSG_VNR } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createContent,
  germanDay,
  multipart,
  relDay,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";
import { fetchVideoDurations } from "./video-durations";

/** ADR 0105: the organiser's Fortbildung rules per event, and the lengths of its videos from oEmbed. */

const asked: string[] = [];
/** per video id the oEmbed `duration` the fake host answers (0: a live stream; null: none, a private video) */
const durations = new Map<string, number | null>();
/** video ids the fake host answers 500 for (Vimeo unreachable) */
const failing = new Set<string>();
let server: Server;
let t: TestApp;
let admin: Awaited<ReturnType<typeof adminAndVisitor>>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake.test");
    const id = (url.searchParams.get("url") ?? "").match(/(\d+)$/)?.[1] ?? "";
    asked.push(id);
    if (failing.has(id)) {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    const duration = durations.has(id) ? durations.get(id) : 600;
    res.end(JSON.stringify({ title: `Vortrag ${id}`, ...(duration !== null && { duration }) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { VIMEO_OEMBED_URL: `${base}/oembed` } });
  admin = await adminAndVisitor(t);
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await t?.close();
});

const db = () => t.db.db;
const idOf = (url: string) => url.match(/(\d+)$/)?.[1] ?? "";

const eventForm = (over: Record<string, unknown> = {}) => ({
  title: "Fortbildungskongress",
  description: "Beschreibung",
  firstCongressDay: germanDay(relDay(0)),
  lastCongressDay: germanDay(relDay(1)),
  ...over,
});

async function stored(id: number) {
  const [row] = await db().select().from(schema.congresses).where(eq(schema.congresses.id, id));
  return row;
}

describe("the Fortbildung rules of an event", () => {
  it("are saved from the event form (numbers as typed, empty as none) and audited like the other fields", async () => {
    const res = await trpcMutation(
      t,
      "admin.congresses.save",
      eventForm({
        fortbildung: true,
        vnr: " 2760602025123450001 ",
        fortbildungCategory: "A",
        pointsPerDay: "",
        requiredPercent: "90",
        presenceChecksPerDay: "3",
        presenceChecksRequired: "2",
        webinarMinutes: "",
      }),
      { token: admin.adminToken },
    );
    expect(res.status).toBe(200);
    expect(await stored(res.data.id)).toMatchObject({
      fortbildung: true,
      vnr: "2760602025123450001",
      fortbildungCategory: "A",
      pointsPerDay: null,
      requiredPercent: 90,
      presenceChecksPerDay: 3,
      presenceChecksRequired: 2,
      webinarMinutes: null,
    });
    const changed = await trpcMutation(
      t,
      "admin.congresses.save",
      eventForm({ id: res.data.id, fortbildung: true, pointsPerDay: "6", webinarMinutes: "90" }),
      { token: admin.adminToken },
    );
    expect(changed.status).toBe(200);
    const [entry] = await db()
      .select()
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.action, "congress.save"), eq(schema.auditLog.entityId, String(res.data.id))),
      );
    expect(entry?.changes).toMatchObject({ pointsPerDay: [null, 6], webinarMinutes: [null, 90] });
  });

  it("stay as stored when a save does not name them (the spec's REST form)", async () => {
    const congress = await createCongress(db(), { fortbildung: true, requiredPercent: 75, vnr: "VNR-1" });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/congress/",
      headers: { authorization: `Bearer ${admin.adminToken}`, ...multipart({}).headers },
      payload: multipart({
        congressData: JSON.stringify({
          id: congress.id,
          title: "Neu",
          description: "D",
          firstCongressDay: { date: congress.firstDay },
          lastCongressDay: { date: congress.lastDay },
        }),
      }).payload,
    });
    expect(res.statusCode).toBe(200);
    expect(await stored(congress.id)).toMatchObject({
      title: "Neu",
      fortbildung: true,
      requiredPercent: 75,
      vnr: "VNR-1",
    });
  });

  it("refuse out-of-range numbers and more required checks than asked, in German under each field", async () => {
    const res = await trpcMutation(
      t,
      "admin.congresses.save",
      eventForm({
        fortbildung: true,
        pointsPerDay: "1,5",
        requiredPercent: "0",
        webinarMinutes: "2000",
      }),
      { token: admin.adminToken },
    );
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({
      fieldErrors: {
        pointsPerDay: [MSG_FORTBILDUNG.pointsPerDay],
        requiredPercent: [MSG_FORTBILDUNG.requiredPercent],
        webinarMinutes: [MSG_FORTBILDUNG.webinarMinutes],
      },
    });
    const checks = await trpcMutation(
      t,
      "admin.congresses.save",
      eventForm({ fortbildung: true, presenceChecksPerDay: "2", presenceChecksRequired: "3" }),
      { token: admin.adminToken },
    );
    expect(checks.status).toBe(400);
    expect(checks.error).toMatchObject({
      fieldErrors: { presenceChecksRequired: [MSG_FORTBILDUNG.checksMoreThanAsked] },
    });
  });

  it("take a VNR of 19 digits, pasted with spaces stored as its digits, and refuse any other at the field", async () => {
    const spaced = await trpcMutation(
      t,
      "admin.congresses.save",
      eventForm({ fortbildung: true, vnr: "276 0602 0251 2345 0001" }),
      { token: admin.adminToken },
    );
    expect(spaced.status).toBe(200);
    expect(await stored(spaced.data.id)).toMatchObject({ vnr: "2760602025123450001" });
    for (const [vnr, message] of [
      ["VNR-1", MSG_VNR.length(1)],
      ["276060202512345000", MSG_VNR.length(18)],
      ["Kongress 2026", MSG_VNR.notDigits],
    ]) {
      const refused = await trpcMutation(
        t,
        "admin.congresses.save",
        eventForm({ id: spaced.data.id, fortbildung: true, vnr }),
        { token: admin.adminToken },
      );
      expect(refused.status, vnr).toBe(400);
      expect(refused.error, vnr).toMatchObject({ fieldErrors: { vnr: [message] } });
    }
    expect(await stored(spaced.data.id)).toMatchObject({ vnr: "2760602025123450001" });
  });

  it("are the admin's alone", async () => {
    const res = await trpcMutation(t, "admin.congresses.save", eventForm({ fortbildung: true }), {
      token: admin.visitorToken,
    });
    expect(res.status).toBe(403);
  });
});

describe("the lengths of a Fortbildung event's videos", () => {
  const duration = async (url: string) => {
    const [row] = await db()
      .select({ seconds: schema.videoPreviews.durationSeconds })
      .from(schema.videoPreviews)
      .where(eq(schema.videoPreviews.key, previewKey(url)));
    return row?.seconds;
  };

  it("come from oEmbed for every video of running and coming Fortbildung events, nobody having opened a page", async () => {
    const [recording, live, ofPast, ofPlain] = [videoUrl(), videoUrl(), videoUrl(), videoUrl()];
    durations.set(idOf(recording), 1234.4);
    durations.set(idOf(live), 0);
    const running = await createCongress(db(), { fortbildung: true });
    await createContent(db(), running.id, [{ urls: [recording] }, { urls: [live] }]);
    const past = await createCongress(db(), { fortbildung: true, firstDay: relDay(-9), lastDay: relDay(-8) });
    await createContent(db(), past.id, [{ urls: [ofPast] }]);
    const plain = await createCongress(db());
    await createContent(db(), plain.id, [{ urls: [ofPlain] }]);

    await fetchVideoDurations({ db: db(), env: t.env, log: t.app.log, clock: t.clock });
    expect(await duration(recording)).toBe(1234);
    // a live stream has no length (Vimeo says 0)
    expect(await duration(live)).toBeNull();
    expect(await duration(ofPast)).toBeUndefined();
    expect(await duration(ofPlain)).toBeUndefined();

    // known lengths are not asked again; the live stream is, an hour later
    const before = asked.length;
    await fetchVideoDurations({ db: db(), env: t.env, log: t.app.log, clock: t.clock });
    expect(asked.length).toBe(before);
    t.clock.set(new Date(Date.now() + 61 * 60 * 1000));
    try {
      await fetchVideoDurations({ db: db(), env: t.env, log: t.app.log, clock: t.clock });
      expect(asked.slice(before)).toEqual([idOf(live)]);
    } finally {
      t.clock.reset();
    }
  });

  it("are fetched right after an admin saves the content of a Fortbildung event", async () => {
    const congress = await createCongress(db(), { fortbildung: true });
    const url = videoUrl();
    durations.set(idOf(url), 2700);
    const res = await trpcMutation(
      t,
      "admin.contents.save",
      {
        congress: String(congress.id),
        type: "vimeo-url",
        data: { days: [{ name: "Tag 1", exclusive_date: "", videos: [{ url, comment: "" }] }] },
      },
      { token: admin.adminToken },
    );
    expect(res.status).toBe(200);
    await expect.poll(() => duration(url), { timeout: 5000 }).toBe(2700);
  });

  it("come with the preview a visitor's page asks for", async () => {
    const congress = await createCongress(db());
    const url = videoUrl();
    durations.set(idOf(url), 61);
    await createContent(db(), congress.id, [{ urls: [url] }]);
    const res = await t.app.inject({
      method: "GET",
      url: `/trpc/video.getPreview?input=${encodeURIComponent(JSON.stringify({ json: { url } }))}`,
      headers: { authorization: `Bearer ${admin.visitorToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await duration(url)).toBe(61);
  });
});

describe("the length the content editor fills in", () => {
  const lengthOf = (url: string, token = admin.adminToken) =>
    trpcQuery(t, "admin.contents.getVideoLength", { url }, { token });

  it("is Vimeo's for an address not saved yet, the stored one without asking again, none where Vimeo tells none", async () => {
    const [fresh, stored, privateVideo] = [videoUrl(), videoUrl(), videoUrl()];
    durations.set(idOf(fresh), 5025);
    durations.set(idOf(privateVideo), null);
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(stored), url: stored, durationSeconds: 1800 });
    const before = asked.length;

    expect((await lengthOf(fresh)).data).toEqual({ seconds: 5025, live: false });
    expect((await lengthOf(stored)).data).toEqual({ seconds: 1800, live: false });
    expect((await lengthOf(privateVideo)).data).toEqual({ seconds: null, live: false });
    // not a Vimeo address: nobody is asked
    expect((await lengthOf("https://example.com/video/1")).data).toEqual({ seconds: null, live: false });
    expect(asked.slice(before)).toEqual([idOf(fresh), idOf(privateVideo)]);
    // the lookup keeps nothing: the address may never be saved (a saved one gets its preview by the job)
    const previews = await db()
      .select()
      .from(schema.videoPreviews)
      .where(eq(schema.videoPreviews.key, previewKey(fresh)));
    expect(previews).toEqual([]);
  });

  it("says whether Vimeo calls the address a live stream (duration 0), for the editor to tick “Livestream”", async () => {
    const [live, storedLive, unreachable] = [videoUrl(), videoUrl(), videoUrl()];
    durations.set(idOf(live), 0);
    // a preview that said live an hour ago: Vimeo is asked again (the stream may be a recording by now) …
    durations.set(idOf(storedLive), 3600);
    await db()
      .insert(schema.videoPreviews)
      .values([
        { key: previewKey(storedLive), url: storedLive, live: true },
        { key: previewKey(unreachable), url: unreachable, live: true },
      ]);
    // … and when Vimeo does not answer, the stored preview's word stands
    failing.add(idOf(unreachable));

    expect((await lengthOf(live)).data).toEqual({ seconds: null, live: true });
    expect((await lengthOf(storedLive)).data).toEqual({ seconds: 3600, live: false });
    expect((await lengthOf(unreachable)).data).toEqual({ seconds: null, live: true });
  });

  it("is for admins only", async () => {
    expect((await lengthOf(videoUrl(), admin.visitorToken)).status).toBe(403);
  });
});

describe("the lengths the job asks Vimeo for", () => {
  it("leave out a video whose length the organiser gave", async () => {
    const congress = await createCongress(db(), { fortbildung: true });
    const [typed, notTyped] = [videoUrl(), videoUrl()];
    await createContent(db(), congress.id, [{ urls: [typed, notTyped], durations: [1200] }]);
    const before = asked.length;
    await fetchVideoDurations(
      { db: db(), env: t.env, log: t.app.log, clock: t.clock },
      { congressId: congress.id },
    );
    expect(asked.slice(before)).toEqual([idOf(notTyped)]);
  });
});
