import { schema } from "@app/db";
import { berlinDate, formatGermanDate } from "@app/shared";
import { and, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createPackage,
  createUser,
  packageOrder,
  participate,
  relDay,
  ticketOrder,
  trpcMutation,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { pdfText } from "../../testing/pdf";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { STAFF_EMAILS: "stab@example.com" } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.db;
const { attendances } = schema;

async function visitor(values: Partial<typeof schema.users.$inferInsert> = {}) {
  const user = await createUser(db(), values);
  return { user, token: await t.tokenFor(user.id) };
}

const rowsOf = (userId: number, congressId: number) =>
  db()
    .select()
    .from(attendances)
    .where(and(eq(attendances.userId, userId), eq(attendances.congressId, congressId)));

const record = (token: string, input: Record<string, unknown>) =>
  trpcMutation(t, "attendance.record", input, { token });

/** The text drawn on the PDF's pages: pdf-lib writes WinAnsi hex strings into deflated content streams. */
describe("recording attendance", () => {
  it("records 20 parallel openings of a running event as one row for today", async () => {
    const congress = await createCongress(db());
    const { user, token } = await visitor();
    await participate(db(), user.id, congress.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => record(token, { congressId: congress.id, source: "video" })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.data.recorded)).toHaveLength(1);
    const rows = await rowsOf(user.id, congress.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ day: berlinDate(), source: "video" });
    // another video later the same day changes nothing
    expect((await record(token, { congressId: congress.id, source: "video" })).data.recorded).toBe(false);
    expect(await rowsOf(user.id, congress.id)).toHaveLength(1);
  });

  it("refuses visitors who may not watch the event today and writes nothing", async () => {
    const { user, token } = await visitor();
    const notParticipating = await createCongress(db());
    const future = await createCongress(db(), { firstDay: relDay(2), lastDay: relDay(3) });
    await participate(db(), user.id, future.id);
    const past = await createCongress(db(), { firstDay: relDay(-5), lastDay: relDay(-4) });
    await participate(db(), user.id, past.id);
    const hidden = await createCongress(db(), { visible: false });
    await participate(db(), user.id, hidden.id);
    const ticketed = await createCongress(db(), { digistoreIdTicket: 4711 });
    await participate(db(), user.id, ticketed.id);
    await ticketOrder(db(), user.id, ticketed.id, "canceled");
    const notAWebinar = await createCongress(db());
    await participate(db(), user.id, notAWebinar.id);

    const cases = [
      { congressId: notParticipating.id, source: "video" },
      { congressId: future.id, source: "video" },
      { congressId: past.id, source: "video" },
      { congressId: hidden.id, source: "video" },
      { congressId: ticketed.id, source: "video" },
      { congressId: notAWebinar.id, source: "webinar" },
      { congressId: 2_000_000_000, source: "video" },
    ];
    for (const input of cases) {
      const answer = await record(token, input);
      expect(answer.status, JSON.stringify(input)).toBe(403);
      expect(answer.error?.title).toBe("Teilnahme nicht erfasst");
    }
    expect(await db().$count(attendances, eq(attendances.userId, user.id))).toBe(0);
    const anonymous = await trpcMutation(t, "attendance.record", cases[0]);
    expect(anonymous.status).toBe(401);
  });

  it("records the webinar link of a ticketed webinar once the ticket is paid", async () => {
    const webinar = await createCongress(db(), {
      webinar: true,
      webinarUrl: "https://webinar.example/x",
      digistoreIdTicket: 4711,
    });
    const { user, token } = await visitor();
    await participate(db(), user.id, webinar.id);
    expect((await record(token, { congressId: webinar.id, source: "webinar" })).status).toBe(403);
    await ticketOrder(db(), user.id, webinar.id, "paid");
    expect((await record(token, { congressId: webinar.id, source: "webinar" })).data).toEqual({
      recorded: true,
    });
    expect((await rowsOf(user.id, webinar.id))[0]?.source).toBe("webinar");
  });

  it("records a video of a bought package for the package's event, and refuses everybody else", async () => {
    const congress = await createCongress(db(), { firstDay: relDay(-30), lastDay: relDay(-29) });
    const pkg = await createPackage(db(), congress.id);
    const buyer = await visitor();
    await packageOrder(db(), buyer.user.id, pkg.id, "paid");
    const other = await visitor();
    const input = { congressId: congress.id, packageId: pkg.id, source: "video" };
    expect((await record(other.token, input)).status).toBe(403);
    // the package must belong to the event named
    const elsewhere = await createCongress(db());
    expect((await record(buyer.token, { ...input, congressId: elsewhere.id })).status).toBe(403);
    expect((await record(buyer.token, input)).data).toEqual({ recorded: true });
    expect(await rowsOf(buyer.user.id, congress.id)).toHaveLength(1);
    expect(await db().$count(attendances, eq(attendances.userId, other.user.id))).toBe(0);
  });

  it("lets staff open any event without counting them outside the rules", async () => {
    const hidden = await createCongress(db(), { visible: false });
    const staff = await visitor({ email: "stab@example.com" });
    expect((await record(staff.token, { congressId: hidden.id, source: "video" })).data).toEqual({
      recorded: false,
    });
    expect(await rowsOf(staff.user.id, hidden.id)).toHaveLength(0);
  });

  it("shows the attended days per event in the admin's user dialog and to the visitor", async () => {
    const congress = await createCongress(db(), { title: "Kongress mit Anwesenheit" });
    const { user, token } = await visitor();
    await db()
      .insert(attendances)
      .values([
        { userId: user.id, congressId: congress.id, day: relDay(-1), source: "video" },
        { userId: user.id, congressId: congress.id, day: relDay(0), source: "webinar" },
      ]);
    const admin = await createUser(db(), { roles: ["ROLE_USER", "ROLE_ADMIN"] });
    const adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
    const dialog = await trpcQuery(t, "admin.users.get", { id: user.id }, { token: adminToken });
    expect(dialog.status).toBe(200);
    expect(dialog.data.attendance).toEqual([
      { congressId: congress.id, title: "Kongress mit Anwesenheit", days: [relDay(-1), relDay(0)] },
    ]);
    const mine = await trpcQuery(t, "attendance.listMine", undefined, { token });
    expect(mine.data).toEqual(dialog.data.attendance);
    const otherMine = await trpcQuery(t, "attendance.listMine", undefined, {
      token: (await visitor()).token,
    });
    expect(otherMine.data).toEqual([]);
  });
});

describe("attendance on the overview", () => {
  it("comes with the overview for the visitor's own attended events only", async () => {
    const congress = await createCongress(db(), { firstDay: relDay(-1), lastDay: relDay(1) });
    const me = await visitor();
    const other = await visitor();
    for (const { user } of [me, other]) {
      await participate(db(), user.id, congress.id);
    }
    expect((await record(me.token, { congressId: congress.id, source: "video" })).status).toBe(200);

    const mine = await trpcQuery(t, "congress.getOverview", undefined, { token: me.token });
    expect(mine.data.attended).toEqual([congress.id]);
    const theirs = await trpcQuery(t, "congress.getOverview", undefined, { token: other.token });
    expect(theirs.data.attended).toEqual([]);
  });
});

describe("attendance confirmation (PDF)", () => {
  it("is a one-page PDF naming the visitor, the event and the attended days", async () => {
    const congress = await createCongress(db(), {
      title: "Kongress für Körper & Seele",
      firstDay: relDay(-1),
      lastDay: relDay(1),
    });
    const { user, token } = await visitor({ firstname: "Jürgen", lastname: "Weiß" });
    await participate(db(), user.id, congress.id);
    await db()
      .insert(attendances)
      .values({ userId: user.id, congressId: congress.id, day: relDay(-1), source: "video" });
    await record(token, { congressId: congress.id, source: "video" });

    const res = await t.app.inject({
      method: "GET",
      url: `/api/congress/${congress.id}/attendance-confirmation.pdf`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe("Teilnahmebestätigung: Kongress für Körper & Seele");
    const text = await pdfText(pdf);
    expect(text).toContain("Teilnahmebestätigung");
    expect(text).toContain("Jürgen Weiß");
    expect(text).toContain("Kongress für Körper & Seele");
    expect(text).toContain(formatGermanDate(relDay(-1)));
    expect(text).toContain(formatGermanDate(relDay(0)));
    expect(text).not.toContain(`, ${formatGermanDate(relDay(1))}`);
    expect(text).toContain(`Ausgestellt am ${formatGermanDate(berlinDate())}`);

    // the web app's way: the same file through tRPC
    const viaTrpc = await trpcQuery(t, "attendance.getCertificate", { congressId: congress.id }, { token });
    expect(Buffer.from(viaTrpc.data.base64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("keeps every letter of a name in any script (DejaVu Sans embedded, ADR 0115)", async () => {
    const congress = await createCongress(db(), { title: "Συνέδριο Ψυχοθεραπείας", firstDay: relDay(-1) });
    const { user, token } = await visitor({ firstname: "Łukasz Nguyễn", lastname: "Żółć Şükrü" });
    await participate(db(), user.id, congress.id);
    await record(token, { congressId: congress.id, source: "video" });
    const res = await t.app.inject({
      method: "GET",
      url: `/api/congress/${congress.id}/attendance-confirmation.pdf`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain("Łukasz Nguyễn Żółć Şükrü");
    expect(text).toContain("Συνέδριο Ψυχοθεραπείας");
  });

  it("is refused without recorded attendance, also to a participant of the event", async () => {
    const congress = await createCongress(db());
    const attended = await visitor();
    await db()
      .insert(attendances)
      .values({ userId: attended.user.id, congressId: congress.id, day: relDay(0), source: "video" });
    const { user, token } = await visitor();
    await participate(db(), user.id, congress.id);
    const res = await t.app.inject({
      method: "GET",
      url: `/api/congress/${congress.id}/attendance-confirmation.pdf`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      title: "Keine Teilnahme",
      detail: "Für diese Veranstaltung ist keine Teilnahme von Ihnen erfasst.",
    });
  });
});
