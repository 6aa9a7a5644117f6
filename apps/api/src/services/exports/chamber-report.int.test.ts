import { schema } from "@app/db";
import { formatGermanDate, MSG_CHAMBER_REPORT, MSG_FIELD } from "@app/shared";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createContent,
  createUser,
  participate,
  relDay,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";

/** Issue 34 item 6: the chamber's report of one event day. */

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
const get = (url: string, token: string | undefined = callers.adminToken) =>
  t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });
const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");

// check digits worked out by hand in packages/shared/src/efn.test.ts
const EFN_A = "802760901234566";
const EFN_C = "802760010000015";
const EFN_D = "802760550000425";
const VNR = "2760602026000123456";

/**
 * A Fortbildung event of yesterday and today, 2 points a day, a 10-minute video each day (8 minutes
 * needed). Today: Żaneta (EFN) and Dara (EFN) and Bruno (no EFN) reached it, Cem (EFN) and Emil (none) did
 * not; yesterday only Cem reached it.
 */
async function event() {
  const [yesterday, today] = [relDay(-1), relDay(0)];
  const congress = await createCongress(db(), {
    title: "Kammer-Tag",
    fortbildung: true,
    vnr: VNR,
    pointsPerDay: 2,
    firstDay: yesterday,
    lastDay: today,
  });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const person = async (firstname: string, lastname: string, efn: string | null, seconds: number) => {
    const user = await createUser(db(), { firstname, lastname, efn });
    await participate(db(), user.id, congress.id);
    await db()
      .insert(schema.watchTime)
      .values({
        userId: user.id,
        congressId: congress.id,
        day: today,
        videoKey: previewKey(url),
        source: "player",
        played: `{[0,${seconds})}`,
        seconds,
      });
    return user;
  };
  const a = await person("Żaneta", "Ąbel", EFN_A, 600);
  const b = await person("Bruno", "Brandt", null, 480);
  const c = await person("Cem", "Çelik", EFN_C, 300);
  const d = await person("Dara", "Dörr; Sohn", EFN_D, 540);
  const e = await person("Emil", "Ebert", null, 0);
  await db()
    .insert(schema.watchTime)
    .values({
      userId: c.id,
      congressId: congress.id,
      day: yesterday,
      videoKey: previewKey(url),
      source: "player",
      played: "{[0,600)}",
      seconds: 600,
    });
  return { congress, today, yesterday, a, b, c, d, e };
}

describe("the chamber's report", () => {
  it("lists who reached the day with VNR, EFN, name, date and points; those without EFN apart", async () => {
    const { congress, today, b } = await event();
    const date = formatGermanDate(today);

    const csv = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=${today}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(
      `attachment; filename="kammermeldung-kammer-tag-${today}.csv"`,
    );
    expect(csv.body.startsWith("\uFEFF")).toBe(true);
    expect(lines(csv.body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${VNR};${EFN_A};Ąbel;Żaneta;${date};2`,
      `${VNR};${EFN_D};"Dörr; Sohn";Dara;${date};2`,
    ]);

    const without = await get(
      `/api/admin/exports/chamber-report/${congress.id}.csv?day=${today}&list=ohne-efn`,
    );
    expect(without.statusCode).toBe(200);
    expect(without.headers["content-disposition"]).toBe(
      `attachment; filename="ohne-efn-kammer-tag-${today}.csv"`,
    );
    expect(lines(without.body)).toEqual([
      "VNR;Nachname;Vorname;E-Mail;Datum;Punkte",
      `${VNR};Brandt;Bruno;${b.email};${date};2`,
    ]);

    const xlsx = await get(`/api/admin/exports/chamber-report/${congress.id}.xlsx?day=${today}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-disposition"]).toBe(
      `attachment; filename="kammermeldung-kammer-tag-${today}.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheets = workbook.worksheets.map((sheet) => ({
      name: sheet.name,
      rows: sheet.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : [])),
    }));
    expect(sheets).toEqual([
      {
        name: "Meldung an die Kammer",
        rows: [
          ["VNR", "EFN", "Nachname", "Vorname", "Datum", "Punkte"],
          // text cells: a spreadsheet keeps every digit
          [VNR, EFN_A, "Ąbel", "Żaneta", date, 2],
          [VNR, EFN_D, "Dörr; Sohn", "Dara", date, 2],
        ],
      },
      {
        name: "Ohne EFN",
        rows: [
          ["VNR", "Nachname", "Vorname", "E-Mail", "Datum", "Punkte"],
          [VNR, "Brandt", "Bruno", b.email, date, 2],
        ],
      },
    ]);
  });

  it("takes another day's outcome for another day, and an EFN entered after the day", async () => {
    const { congress, yesterday, c } = await event();
    await db().update(schema.users).set({ efn: null }).where(eq(schema.users.id, c.id));
    const before = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=${yesterday}`);
    expect(lines(before.body)).toEqual(["VNR;EFN;Nachname;Vorname;Datum;Punkte"]);
    await db().update(schema.users).set({ efn: EFN_C }).where(eq(schema.users.id, c.id));
    const after = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=${yesterday}`);
    expect(lines(after.body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${VNR};${EFN_C};Çelik;Cem;${formatGermanDate(yesterday)};2`,
    ]);
  });

  it("asks for a day of the event", async () => {
    const { congress } = await event();
    const noDay = await get(`/api/admin/exports/chamber-report/${congress.id}.csv`);
    expect(noDay.statusCode).toBe(400);
    expect(noDay.json().detail).toBe(MSG_CHAMBER_REPORT.day);
    const badDay = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=morgen`);
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().detail).toBe(MSG_FIELD.date);
    const otherDay = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=${relDay(5)}`);
    expect(otherDay.statusCode).toBe(400);
    expect(otherDay.json()).toEqual({ title: expect.any(String), detail: MSG_CHAMBER_REPORT.notADay });
    const badList = await get(
      `/api/admin/exports/chamber-report/${congress.id}.csv?day=${relDay(0)}&list=alle`,
    );
    expect(badList.statusCode).toBe(400);
    expect(badList.json().detail).toBe(MSG_CHAMBER_REPORT.list);
    const unknown = await get(`/api/admin/exports/chamber-report/999999.csv?day=${relDay(0)}`);
    expect(unknown.statusCode).toBe(404);
  });

  it("is for admins only: visitors get 403, anonymous callers 401, and neither any row", async () => {
    const { congress, today } = await event();
    const url = `/api/admin/exports/chamber-report/${congress.id}.csv?day=${today}`;
    const visitor = await get(url, callers.visitorToken);
    expect(visitor.statusCode).toBe(403);
    expect(visitor.body).not.toContain(EFN_A);
    const anonymous = await get(url, "");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain(EFN_A);
  });
});
