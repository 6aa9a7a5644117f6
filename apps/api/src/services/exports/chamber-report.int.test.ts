import { schema } from "@app/db";
import { formatGermanDate, MSG_CHAMBER_REPORT, MSG_FIELD } from "@app/shared";
import { and, eq, isNull } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
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
import { issueEventCertificates } from "../certificates/issue";
import { saveIssuer } from "../certificates/issuer";
import { previewKey } from "../visitor/video-preview";

/**
 * The chamber's report of one event day (ADR 0113), built from the valid certificates of the event
 * (ADR 0116): what the organiser confirms is what the chamber is told.
 */

let t: TestApp;
let callers: Awaited<ReturnType<typeof adminAndVisitor>>;
beforeAll(async () => {
  t = await createTestApp();
  callers = await adminAndVisitor(t);
  await saveIssuer(t.db.db, { name: "Institut für Fortbildung" }, callers.adminId);
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
const report = (congressId: number, day: string, list = "") =>
  get(`/api/admin/exports/chamber-report/${congressId}.csv?day=${day}${list && `&list=${list}`}`);
const certificateOf = async (userId: number, congressId: number) => {
  const [row] = await db()
    .select()
    .from(schema.certificates)
    .where(
      and(
        eq(schema.certificates.userId, userId),
        eq(schema.certificates.congressId, congressId),
        isNull(schema.certificates.revokedAt),
      ),
    );
  if (!row) {
    throw new Error(`no current certificate of user ${userId}`);
  }
  return row;
};
const admin = (path: string, input: unknown) => trpcMutation(t, path, input, { token: callers.adminToken });

// check digits worked out by hand in packages/shared/src/efn.test.ts
const EFN_A = "802760901234566";
const EFN_C = "802760010000015";
const EFN_D = "802760550000425";
const VNR = "2760602026000123456";

/**
 * A Fortbildung event of the day before yesterday (`first`) and yesterday (`last`), so it is over and its
 * certificates are due; 2 points a day, a 10-minute video each day (8 minutes needed). On `last` Żaneta
 * (EFN), Dara (EFN) and Bruno (no EFN) reached it, Cem (EFN) and Emil (none) did not; on `first` only Cem.
 */
async function event() {
  const [first, last] = [relDay(-2), relDay(-1)];
  const congress = await createCongress(db(), {
    title: "Kammer-Tag",
    fortbildung: true,
    vnr: VNR,
    pointsPerDay: 2,
    firstDay: first,
    lastDay: last,
  });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const watched = (userId: number, day: string, seconds: number) =>
    db()
      .insert(schema.watchTime)
      .values({
        userId,
        congressId: congress.id,
        day,
        videoKey: previewKey(url),
        source: "player",
        played: `{[0,${seconds})}`,
        seconds,
      });
  const person = async (firstname: string, lastname: string, efn: string | null, seconds: number) => {
    const user = await createUser(db(), { firstname, lastname, efn });
    await participate(db(), user.id, congress.id);
    await watched(user.id, last, seconds);
    return user;
  };
  const a = await person("Żaneta", "Ąbel", EFN_A, 600);
  const b = await person("Bruno", "Brandt", null, 480);
  const c = await person("Cem", "Çelik", EFN_C, 300);
  const d = await person("Dara", "Dörr; Sohn", EFN_D, 540);
  const e = await person("Emil", "Ebert", null, 0);
  await watched(c.id, first, 600);
  return { congress, first, last, a, b, c, d, e };
}

describe("the chamber's report", () => {
  it("lists who reached the day with VNR, EFN, name, date and points; those without EFN apart", async () => {
    const { congress, last, b } = await event();
    const date = formatGermanDate(last);

    const csv = await report(congress.id, last);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(
      `attachment; filename="kammermeldung-kammer-tag-${last}.csv"`,
    );
    expect(csv.body.startsWith("\uFEFF")).toBe(true);
    expect(lines(csv.body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${VNR};${EFN_A};Ąbel;Żaneta;${date};2`,
      `${VNR};${EFN_D};"Dörr; Sohn";Dara;${date};2`,
    ]);

    const without = await report(congress.id, last, "ohne-efn");
    expect(without.statusCode).toBe(200);
    expect(without.headers["content-disposition"]).toBe(
      `attachment; filename="ohne-efn-kammer-tag-${last}.csv"`,
    );
    expect(lines(without.body)).toEqual([
      "VNR;Nachname;Vorname;E-Mail;Datum;Punkte",
      `${VNR};Brandt;Bruno;${b.email};${date};2`,
    ]);

    const xlsx = await get(`/api/admin/exports/chamber-report/${congress.id}.xlsx?day=${last}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-disposition"]).toBe(
      `attachment; filename="kammermeldung-kammer-tag-${last}.xlsx"`,
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

  it("leaves a revoked certificate out and reports a replaced one once, with its replacement's points", async () => {
    const { congress, last, a, b, d } = await event();
    const date = formatGermanDate(last);
    // the delivery job's run after the last day (ADR 0118)
    expect(
      await issueEventCertificates({ db: db(), env: t.env, clock: t.clock }, { congressId: congress.id }),
    ).toHaveLength(4);
    for (const who of [a, b]) {
      const revoked = await admin("admin.certificates.revoke", {
        id: (await certificateOf(who.id, congress.id)).id,
        reason: "Teilnahme nicht nachgewiesen",
      });
      expect(revoked.status).toBe(200);
    }
    // a correction after the certificates were issued: 3 points a day, then Dara's certificate re-issued
    await db()
      .update(schema.congresses)
      .set({ pointsPerDay: 3 })
      .where(eq(schema.congresses.id, congress.id));
    const old = await certificateOf(d.id, congress.id);
    expect((await admin("admin.certificates.reissue", { id: old.id })).status).toBe(200);
    expect((await certificateOf(d.id, congress.id)).id).not.toBe(old.id);

    expect(lines((await report(congress.id, last)).body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${VNR};${EFN_D};"Dörr; Sohn";Dara;${date};3`,
    ]);
    expect(lines((await report(congress.id, last, "ohne-efn")).body)).toEqual([
      "VNR;Nachname;Vorname;E-Mail;Datum;Punkte",
    ]);
    // the watch time that reached the day is still there: the certificates decide, not the minutes
    const section = await trpcQuery(
      t,
      "admin.fortbildung.getDay",
      { congressId: congress.id, day: last, page: 1 },
      { token: callers.adminToken },
    );
    expect(section.data.reached).toBe(3);
  });

  it("reports the facts as certified: an EFN entered after issuing counts once the certificate is re-issued", async () => {
    const { congress, first, c } = await event();
    const date = formatGermanDate(first);
    await db().update(schema.users).set({ efn: null }).where(eq(schema.users.id, c.id));
    expect(lines((await report(congress.id, first)).body)).toEqual(["VNR;EFN;Nachname;Vorname;Datum;Punkte"]);
    expect(lines((await report(congress.id, first, "ohne-efn")).body)).toEqual([
      "VNR;Nachname;Vorname;E-Mail;Datum;Punkte",
      `${VNR};Çelik;Cem;${c.email};${date};2`,
    ]);
    await db().update(schema.users).set({ efn: EFN_C }).where(eq(schema.users.id, c.id));
    expect(lines((await report(congress.id, first)).body)).toHaveLength(1);
    const reissued = await admin("admin.certificates.reissue", {
      id: (await certificateOf(c.id, congress.id)).id,
    });
    expect(reissued.status).toBe(200);
    expect(lines((await report(congress.id, first)).body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${VNR};${EFN_C};Çelik;Cem;${date};2`,
    ]);
    expect(lines((await report(congress.id, first, "ohne-efn")).body)).toHaveLength(1);
  });

  it("is not made before the certificates are: not before the last day is over, not without an issuer", async () => {
    const { congress, first, last } = await event();
    t.clock.set(new Date(`${last}T12:00:00Z`));
    try {
      const early = await report(congress.id, first);
      expect(early.statusCode).toBe(409);
      expect(early.json().detail).toBe(MSG_CHAMBER_REPORT.beforeEnd(formatGermanDate(relDay(0))));
    } finally {
      t.clock.reset();
    }
    await db().update(schema.certificateIssuer).set({ name: "" });
    try {
      const noIssuer = await report(congress.id, last);
      expect(noIssuer.statusCode).toBe(409);
      expect(noIssuer.json().detail).toBe(MSG_CHAMBER_REPORT.noIssuer);
      const section = await trpcQuery(
        t,
        "admin.fortbildung.getDay",
        { congressId: congress.id, day: last, page: 1 },
        { token: callers.adminToken },
      );
      expect(section.data.chamberReport).toEqual({ status: "no-issuer" });
    } finally {
      await db().update(schema.certificateIssuer).set({ name: "Institut für Fortbildung" });
    }
    expect(
      await db().select().from(schema.certificates).where(eq(schema.certificates.congressId, congress.id)),
    ).toEqual([]);
    // once the issuer is named, the report issues the certificates that are due before it reads them
    expect(lines((await report(congress.id, last)).body)).toHaveLength(3);
    expect(
      await db().select().from(schema.certificates).where(eq(schema.certificates.congressId, congress.id)),
    ).toHaveLength(4);
  });

  it("asks for a day of the event", async () => {
    const { congress, last } = await event();
    const noDay = await get(`/api/admin/exports/chamber-report/${congress.id}.csv`);
    expect(noDay.statusCode).toBe(400);
    expect(noDay.json().detail).toBe(MSG_CHAMBER_REPORT.day);
    const badDay = await get(`/api/admin/exports/chamber-report/${congress.id}.csv?day=morgen`);
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().detail).toBe(MSG_FIELD.date);
    const otherDay = await report(congress.id, relDay(5));
    expect(otherDay.statusCode).toBe(400);
    expect(otherDay.json()).toEqual({ title: expect.any(String), detail: MSG_CHAMBER_REPORT.notADay });
    const badList = await report(congress.id, last, "alle");
    expect(badList.statusCode).toBe(400);
    expect(badList.json().detail).toBe(MSG_CHAMBER_REPORT.list);
    const unknown = await report(999999, last);
    expect(unknown.statusCode).toBe(404);
  });

  it("is for admins only: visitors get 403, anonymous callers 401, and neither any row", async () => {
    const { congress, last } = await event();
    const url = `/api/admin/exports/chamber-report/${congress.id}.csv?day=${last}`;
    const visitor = await get(url, callers.visitorToken);
    expect(visitor.statusCode).toBe(403);
    expect(visitor.body).not.toContain(EFN_A);
    const anonymous = await get(url, "");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain(EFN_A);
  });
});
