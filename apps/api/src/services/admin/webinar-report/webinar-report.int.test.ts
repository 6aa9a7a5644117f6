import { schema } from "@app/db";
import { MAX_REPORT_BYTES, MSG, MSG_REPORT, REPORT_VIDEO_KEY } from "@app/shared";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCongress, createUser, participate } from "../../../testing/builders";
import { createTestApp, type TestApp } from "../../../testing/harness";
import {
  ANNA_MINUTES,
  BERND_MINUTES,
  GENERIC,
  REPORT_DAY,
  ZOOM_ENGLISH,
  ZOOM_GERMAN,
  ZOOM_GERMAN_BROKEN,
} from "./sample-reports";

/**
 * `admin.webinarReports.preview` and `.apply` through HTTP, as the web app sends them (form data): a
 * Zoom report credits the right people and minutes, the same report again changes nothing (ADR 0107).
 */

let t: TestApp;
let adminToken: string;
let visitorToken: string;
const db = () => t.db.db;
const { watchTime, auditLog } = schema;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(db(), { roles: ["ROLE_USER", "ROLE_ADMIN"] });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
  visitorToken = await t.tokenFor((await createUser(db())).id);
});
afterAll(async () => {
  await t?.close();
});

const BOUNDARY = "----teilnehmerbericht-4f2a";

function form(fields: Record<string, string>, file?: { name: string; data: Buffer | string }): Buffer {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data, "utf8"),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

async function call(
  procedure: "preview" | "import",
  congressId: number,
  report: string | Buffer,
  options: { day?: string; token?: string | undefined; name?: string } = {},
) {
  // no `token`: the admin's; `token: undefined`: anonymous
  const token = "token" in options ? options.token : adminToken;
  const res = await t.app.inject({
    method: "POST",
    url: `/trpc/admin.webinarReports.${procedure}`,
    headers: {
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...(token && { authorization: `Bearer ${token}` }),
    },
    payload: form(
      { congressId: String(congressId), day: options.day ?? REPORT_DAY },
      { name: options.name ?? "teilnehmer.csv", data: report },
    ),
  });
  const body = JSON.parse(res.body);
  return {
    status: res.statusCode,
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
    data: body.result?.data?.json as any,
    error: body.error?.json?.data as { title: string; detail: string } | undefined,
  };
}

/** A webinar on 19-21 November 2026 with Anna and Bernd as accounts (Anna signed up). */
async function webinarWithPeople() {
  const congress = await createCongress(db(), {
    webinar: true,
    webinarUrl: "https://zoom.example/j/8123456789",
    firstDay: "2026-11-19",
    lastDay: "2026-11-21",
  });
  const suffix = `${congress.id}`;
  // each test its own accounts: the report's addresses with the congress id in them
  const address = (name: string) => `${name}.${suffix}@example.com`;
  const anna = await createUser(db(), { email: address("Anna.Adler"), firstname: "Anna", lastname: "Adler" });
  const bernd = await createUser(db(), {
    email: address("bernd.berg"),
    firstname: "Bernd",
    lastname: "Berg",
  });
  await participate(db(), anna.id, congress.id);
  const own = (report: string) =>
    report
      .replaceAll(/anna\.adler@example\.com/gi, address("anna.adler"))
      .replaceAll(/bernd\.berg@example\.com/gi, address("bernd.berg"));
  return { congress, anna, bernd, own };
}

const rowsOf = (congressId: number) =>
  db()
    .select({
      userId: watchTime.userId,
      played: sql<string>`${watchTime.played}::text`,
      seconds: watchTime.seconds,
      updatedAt: watchTime.updatedAt,
      source: watchTime.source,
      videoKey: watchTime.videoKey,
      day: watchTime.day,
    })
    .from(watchTime)
    .where(eq(watchTime.congressId, congressId))
    .orderBy(watchTime.userId);

const auditsOf = (congressId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, String(congressId)), eq(auditLog.action, "watch-time.import")));

describe("admin.webinarReports.preview", () => {
  it("shows matched accounts (e-mail in any case), merged stretches and minutes, and unmatched rows; writes nothing", async () => {
    const { congress, anna, bernd, own } = await webinarWithPeople();
    const res = await call("preview", congress.id, own(ZOOM_ENGLISH));
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data.rows).toBe(6);
    const people = res.data.people as Array<Record<string, unknown>>;
    expect(people.map((p) => [p.userId, p.minutes, p.newMinutes, p.rows, p.registered])).toEqual([
      [anna.id, ANNA_MINUTES, ANNA_MINUTES, 3, true],
      [bernd.id, BERND_MINUTES, BERND_MINUTES, 1, false],
    ]);
    expect(people[0]?.name).toBe("Anna Adler");
    expect(people[0]?.intervals).toEqual([
      // the answer's JSON without superjson's meta: the instants as ISO texts
      { from: "2026-11-20T08:00:05.000Z", to: "2026-11-20T09:30:00.000Z" },
      { from: "2026-11-20T10:00:00.000Z", to: "2026-11-20T10:30:00.000Z" },
    ]);
    expect(res.data.unmatched).toEqual([
      { line: 8, name: "iPhone von Gast", email: "", reason: "noEmail" },
      { line: 10, name: "Niemand Bekannt", email: "niemand@example.com", reason: "unknown" },
    ]);
    expect(await rowsOf(congress.id)).toEqual([]);
  });

  it("refuses a broken row, a day not of the event and a missing event in German", async () => {
    const { congress, own } = await webinarWithPeople();
    const broken = await call("preview", congress.id, own(ZOOM_GERMAN_BROKEN));
    expect(broken.status).toBe(400);
    expect(broken.error).toMatchObject({
      title: MSG_REPORT.invalidTitle,
      detail: MSG_REPORT.timeInvalid(7, "Beitrittszeit", "20.13.2026 09:00:00"),
    });
    const wrongDay = await call("import", congress.id, own(ZOOM_GERMAN), { day: "2026-11-22" });
    expect(wrongDay.status).toBe(400);
    expect(wrongDay.error?.detail).toBe(MSG_REPORT.dayNotOfCongress);
    const noDay = await call("preview", congress.id, own(ZOOM_GERMAN), { day: "20.11.2026" });
    expect(noDay.status).toBe(400);
    expect(noDay.error?.detail).toBe(MSG_REPORT.dayInvalid);
    const missing = await call("preview", 999_999, own(ZOOM_GERMAN));
    expect(missing.status).toBe(404);
    expect(missing.error?.detail).toBe(MSG_REPORT.congressMissing);
    expect(await rowsOf(congress.id)).toEqual([]);
  });

  it("refuses a report over 5 MB, and a body far over it while it streams", async () => {
    const { congress } = await webinarWithPeople();
    const head = "E-Mail,Beginn,Ende\n";
    const over = `${head}${"x".repeat(MAX_REPORT_BYTES + 1000 - head.length)}`;
    const res = await call("preview", congress.id, over);
    expect(res.status).toBe(400);
    expect(res.error?.detail).toBe(MSG_REPORT.fileTooLarge);
    const far = await call("preview", congress.id, `${head}${"x".repeat(MAX_REPORT_BYTES + 200_000)}`);
    expect(far.status).toBe(413);
    expect(far.error?.detail).toBe(MSG.payloadTooLargeDetail);
  });

  it("is for admins only", async () => {
    const { congress, own } = await webinarWithPeople();
    const visitor = await call("import", congress.id, own(ZOOM_GERMAN), { token: visitorToken });
    expect(visitor.status).toBe(403);
    expect(visitor.error).toMatchObject({ title: MSG.forbiddenTitle });
    const anonymous = await call("import", congress.id, own(ZOOM_GERMAN), { token: undefined });
    expect(anonymous.status).toBe(401);
    expect(await rowsOf(congress.id)).toEqual([]);
  });
});

describe("admin.webinarReports.import", () => {
  it("stores the merged stretches as report watch time, audited; the same file again changes nothing", async () => {
    const { congress, anna, bernd, own } = await webinarWithPeople();
    const applied = await call("import", congress.id, own(ZOOM_GERMAN), { name: "zoom-20-11.csv" });
    expect(applied.status, JSON.stringify(applied.error)).toBe(200);
    expect(applied.data).toEqual({ people: 2, minutes: ANNA_MINUTES + BERND_MINUTES });
    const rows = await rowsOf(congress.id);
    expect(rows.map(({ updatedAt: _, ...row }) => row)).toEqual([
      {
        userId: anna.id,
        played: `{[${9 * 3600 + 5},${10.5 * 3600}),[${11 * 3600},${11.5 * 3600})}`,
        seconds: 119 * 60 + 55,
        source: "report",
        videoKey: REPORT_VIDEO_KEY,
        day: REPORT_DAY,
      },
      {
        userId: bernd.id,
        played: `{[${9 * 3600 + 60},${12 * 3600 + 60})}`,
        seconds: 180 * 60,
        source: "report",
        videoKey: REPORT_VIDEO_KEY,
        day: REPORT_DAY,
      },
    ]);
    const audits = await auditsOf(congress.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.changes).toMatchObject({
      day: REPORT_DAY,
      fileName: "zoom-20-11.csv",
      accounts: 2,
      minutesAdded: ANNA_MINUTES + BERND_MINUTES,
      unmatchedRows: 2,
    });

    // the same meeting again, as the English export: nothing changes, nothing is recorded
    for (const report of [ZOOM_GERMAN, ZOOM_ENGLISH]) {
      const again = await call("import", congress.id, own(report));
      expect(again.data).toEqual({ people: 0, minutes: 0 });
    }
    expect(await rowsOf(congress.id)).toEqual(rows);
    expect(await auditsOf(congress.id)).toHaveLength(1);
    const preview = await call("preview", congress.id, own(ZOOM_ENGLISH));
    expect(preview.data.people.map((p: { newMinutes: number }) => p.newMinutes)).toEqual([0, 0]);
  });

  it("joins a further report with what is there (multirange union) and leaves player watch time alone", async () => {
    const { congress, anna, own } = await webinarWithPeople();
    await db()
      .insert(watchTime)
      .values({
        userId: anna.id,
        congressId: congress.id,
        day: REPORT_DAY,
        videoKey: "a".repeat(64),
        source: "player",
        played: "{[0,600)}",
        seconds: 600,
      });
    await call("import", congress.id, own(ZOOM_GERMAN));
    // 13:00-13:45 is new; 09:30-10:00 was covered already
    const more = `${own(GENERIC).trimEnd()}\n${own("anna.adler@example.com,09:30,10:00")}\n`;
    const res = await call("import", congress.id, more);
    expect(res.data).toEqual({ people: 1, minutes: 45 });
    const [annaReport] = (await rowsOf(congress.id)).filter(
      (r) => r.userId === anna.id && r.source === "report",
    );
    expect(annaReport?.played).toBe(
      `{[${9 * 3600 + 5},${10.5 * 3600}),[${11 * 3600},${11.5 * 3600}),[${13 * 3600},${13.75 * 3600})}`,
    );
    const player = (await rowsOf(congress.id)).find((r) => r.source === "player");
    expect(player).toMatchObject({ played: "{[0,600)}", seconds: 600 });
  });
});
