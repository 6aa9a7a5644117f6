import { addDays, REFUSALS } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailAttachments } from "../../mail-delivery/attachments";
import {
  createCongress,
  createUser,
  participate,
  relDay,
  ticketOrder,
  trpcMutation,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { buildCalendar, foldLine } from "./ics";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.db;
const compact = (day: string) => day.replace(/-/g, "");
/** the content lines with folding undone (RFC 5545 3.1) */
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, "").split("\r\n");
const events = (ics: string) => ics.split("BEGIN:VEVENT").slice(1);
const prop = (block: string, name: string) =>
  unfold(block).find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));

async function visitor() {
  const user = await createUser(db());
  return { user, token: await t.tokenFor(user.id) };
}

async function download(congressId: number, token: string) {
  return t.app.inject({
    method: "GET",
    url: `/api/congress/${congressId}/calendar.ics`,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe("the RFC 5545 writer", () => {
  it("ends every line with CRLF and folds long lines at 75 octets without splitting a letter", () => {
    const title = `Kongress über Bindung, Nähe; Grenzen \\ Übergänge ${"ä".repeat(80)}`;
    const ics = buildCalendar(
      [
        {
          uid: "a@b",
          day: "2026-03-29",
          summary: title,
          description: "Zeile 1\nZeile 2",
          url: null,
          location: null,
        },
      ],
      { name: title, startTime: null, durationMinutes: 120, now: new Date("2026-01-02T03:04:05Z") },
    );
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) {
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      expect(line).not.toContain("\uFFFD");
    }
    expect(prop(ics, "SUMMARY")).toBe(
      `SUMMARY:Kongress über Bindung\\, Nähe\\; Grenzen \\\\ Übergänge ${"ä".repeat(80)}`,
    );
    expect(prop(ics, "DESCRIPTION")).toBe("DESCRIPTION:Zeile 1\\nZeile 2");
    expect(prop(ics, "DTSTAMP")).toBe("DTSTAMP:20260102T030405Z");
    expect(foldLine("x".repeat(75))).toBe("x".repeat(75));
    expect(foldLine("x".repeat(76))).toBe(`${"x".repeat(75)}\r\n x`);
  });
});

describe("GET /api/congress/:id/calendar.ics", () => {
  it("has one all-day VEVENT per congress day with the event's title, description and link", async () => {
    const first = relDay(3);
    const congress = await createCongress(db(), {
      title: "Bindung, Nähe; Grenzen",
      description: "Drei Tage \\ Vorträge\nmit Diskussion",
      firstDay: first,
      lastDay: addDays(first, 2),
    });
    const { token } = await visitor();
    const res = await download(congress.id, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/calendar");
    expect(res.headers["content-disposition"]).toContain(".ics");
    const ics = res.body;
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    const blocks = events(ics);
    expect(blocks).toHaveLength(3);
    blocks.forEach((block, i) => {
      const day = addDays(first, i);
      expect(prop(block, "DTSTART")).toBe(`DTSTART;VALUE=DATE:${compact(day)}`);
      expect(prop(block, "DTEND")).toBe(`DTEND;VALUE=DATE:${compact(addDays(day, 1))}`);
      expect(prop(block, "SUMMARY")).toBe(`SUMMARY:Bindung\\, Nähe\\; Grenzen (Tag ${i + 1} von 3)`);
      expect(prop(block, "UID")).toBe(`UID:kongress-${congress.id}-${day}@app.test`);
      expect(prop(block, "URL")).toBe(`URL:http://app.test/congress/${congress.id}`);
      expect(prop(block, "DESCRIPTION")).toContain("Drei Tage \\\\ Vorträge\\nmit Diskussion");
    });
    expect(prop(ics, "DTSTAMP")).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
    // all-day events need no time zone definition
    expect(ics).not.toContain("BEGIN:VTIMEZONE");
  });

  it("gives a webinar timed events at its start time in Berlin, across the change to summer time", async () => {
    // 28 and 29 March 2027: the clocks go forward in the night to the 29th; 18:30 stays 18:30 local time
    const congress = await createCongress(db(), {
      webinar: true,
      webinarStartTime: "18:30",
      webinarUrl: "https://webinar.example/raum-1",
      firstDay: "2027-03-28",
      lastDay: "2027-03-29",
    });
    const { token } = await visitor();
    const ics = (await download(congress.id, token)).body;
    expect(ics).toContain("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n");
    const blocks = events(ics);
    expect(blocks.map((b) => prop(b, "DTSTART"))).toEqual([
      "DTSTART;TZID=Europe/Berlin:20270328T183000",
      "DTSTART;TZID=Europe/Berlin:20270329T183000",
    ]);
    expect(blocks.map((b) => prop(b, "DTEND"))).toEqual([
      "DTEND;TZID=Europe/Berlin:20270328T203000",
      "DTEND;TZID=Europe/Berlin:20270329T203000",
    ]);
  });

  it("holds the webinar link only for a participant with a paid ticket", async () => {
    const webinarUrl = `https://webinar.example/${Date.now()}`;
    const congress = await createCongress(db(), {
      webinar: true,
      webinarStartTime: "10:00",
      webinarUrl,
      digistoreIdTicket: 4711,
      firstDay: relDay(5),
      lastDay: null,
    });
    const paid = await visitor();
    await participate(db(), paid.user.id, congress.id);
    await ticketOrder(db(), paid.user.id, congress.id, "paid");
    const cancelled = await visitor();
    await participate(db(), cancelled.user.id, congress.id);
    await ticketOrder(db(), cancelled.user.id, congress.id, "canceled");
    const stranger = await visitor();

    const paidIcs = (await download(congress.id, paid.token)).body;
    expect(events(paidIcs)).toHaveLength(1);
    expect(prop(paidIcs, "LOCATION")).toBe(`LOCATION:${webinarUrl}`);
    expect(unfold(paidIcs).join("")).toContain(`Link zum Webinar: ${webinarUrl}`);
    for (const other of [cancelled, stranger]) {
      const res = await download(congress.id, other.token);
      expect(res.statusCode).toBe(200);
      expect(unfold(res.body).join("")).not.toContain(webinarUrl);
      expect(prop(res.body, "LOCATION")).toBe("LOCATION:Online");
    }
    // the tRPC procedure the web app uses follows the same rule
    const viaTrpc = await trpcQuery(
      t,
      "congress.getCalendar",
      { congressId: congress.id },
      { token: stranger.token },
    );
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.data.content).not.toContain(webinarUrl);
  });

  it("does not exist for an invisible event or without sign-in", async () => {
    const hidden = await createCongress(db(), { visible: false });
    const { token } = await visitor();
    const res = await download(hidden.id, token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      title: "Veranstaltung nicht gefunden",
      detail: REFUSALS.unknownCongress.detail,
    });
    expect(res.json().detail).not.toBe(res.json().title);
    const anonymous = await t.app.inject({ method: "GET", url: `/api/congress/${hidden.id}/calendar.ics` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("calendar file in the participation mail", () => {
  it("attaches the event's .ics to the participation confirmation", async () => {
    const congress = await createCongress(db(), {
      title: `Mail-Kongress ${Date.now()}`,
      firstDay: relDay(7),
      lastDay: relDay(8),
    });
    const { user, token } = await visitor();
    const res = await trpcMutation(t, "participation.create", { congressId: congress.id }, { token });
    expect(res.status).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment?.filename).toBe(`veranstaltung-${congress.id}.ics`);
    expect(attachment?.contentType).toBe("text/calendar");
    const ics = attachment?.content ?? "";
    expect(events(ics).map((b) => prop(b, "DTSTART"))).toEqual([
      `DTSTART;VALUE=DATE:${compact(relDay(7))}`,
      `DTSTART;VALUE=DATE:${compact(relDay(8))}`,
    ]);
    expect(unfold(ics).join("")).toContain(congress.title);
  });

  it("attaches it to ticket mails with the webinar link the buyer has paid for, not to package mails", async () => {
    const webinarUrl = `https://webinar.example/ticket-${Date.now()}`;
    const congress = await createCongress(db(), {
      webinar: true,
      webinarStartTime: "09:15",
      webinarUrl,
      digistoreIdTicket: 4711,
      firstDay: relDay(4),
      lastDay: null,
    });
    const { user } = await visitor();
    await participate(db(), user.id, congress.id);
    await ticketOrder(db(), user.id, congress.id, "paid");
    const mail = (templateName: string, variables: Record<string, unknown> = {}) =>
      mailAttachments(
        db(),
        t.env.APP_URL,
        { templateName, congressId: congress.id, userId: user.id, variables },
        t.clock.now(),
      );
    for (const name of ["order-ticket", "order-ticket-package"]) {
      const [attachment, ...more] = await mail(name);
      expect(more).toHaveLength(0);
      expect(unfold(String(attachment?.content ?? "")).join("")).toContain(webinarUrl);
      expect(attachment?.content).toContain(`DTSTART;TZID=Europe/Berlin:${compact(relDay(4))}T091500`);
    }
    expect(await mail("order-admin", { productKind: "Ticket" })).toHaveLength(1);
    expect(await mail("order-admin", { productKind: "Kongresspaket" })).toHaveLength(0);
    expect(await mail("order-package")).toHaveLength(0);
    expect(await mail("event-day")).toHaveLength(0);
  });
});
