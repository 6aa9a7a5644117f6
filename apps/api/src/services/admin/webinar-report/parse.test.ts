import { MSG_REPORT } from "@app/shared";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../lib/app-error";
import { mergeByPerson, mergeRanges, rangesSeconds } from "./merge";
import { parseReport, parseReportTime } from "./parse";
import {
  ANNA_MINUTES,
  GENERIC,
  REPORT_DAY,
  ZOOM_ENGLISH,
  ZOOM_GERMAN,
  ZOOM_GERMAN_BROKEN,
} from "./sample-reports";

const read = (text: string | Buffer, day = REPORT_DAY) =>
  parseReport(typeof text === "string" ? Buffer.from(text, "utf8") : text, day);

/** The German detail of a refused report. */
function refusal(text: string | Buffer, day = REPORT_DAY): string {
  try {
    read(text, day);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).userMessage ?? "";
  }
  throw new Error("the report was accepted");
}

/** 2026-11-20 is winter time: Berlin is UTC+1. */
const berlin = (clock: string, day = REPORT_DAY) => new Date(`${day}T${clock}+01:00`);

describe("parseReport", () => {
  it("reads Zoom's English report past its meeting summary, US times as Berlin time", () => {
    const rows = read(ZOOM_ENGLISH);
    expect(rows.map((r) => r.email)).toEqual([
      "anna.adler@example.com",
      "bernd.berg@example.com",
      "anna.adler@example.com",
      "",
      "anna.adler@example.com",
      "niemand@example.com",
    ]);
    expect(rows[0]).toEqual({
      line: 5,
      name: "Anna Adler",
      email: "anna.adler@example.com",
      from: berlin("09:00:05"),
      to: berlin("09:45:10"),
    });
    expect(rows[1]?.to).toEqual(berlin("12:01:00"));
  });

  it("reads Zoom's German report: byte order mark, semicolons, a quoted name with a comma, German dates", () => {
    const rows = read(ZOOM_GERMAN);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ line: 2, name: "Adler, Anna", from: berlin("09:00:05") });
    expect(rows[1]?.email).toBe("bernd.berg@example.com");
    expect(rows[4]).toMatchObject({ from: berlin("11:00:00"), to: berlin("11:30:00") });
    // the same people as in the English report
    const english = read(ZOOM_ENGLISH).map(({ email, from, to }) => ({ email, from, to }));
    expect(rows.map(({ email, from, to }) => ({ email, from, to }))).toEqual(english);
  });

  it("reads a hand-made table E-Mail, Beginn, Ende with clock times on the chosen day", () => {
    expect(read(GENERIC)).toEqual([
      {
        line: 2,
        name: "",
        email: "anna.adler@example.com",
        from: berlin("13:00:00"),
        to: berlin("13:45:00"),
      },
    ]);
  });

  it("reads a report Excel saved again as Windows-1252, umlauts included", () => {
    const latin = Buffer.from(
      ZOOM_GERMAN.replace("\uFEFF", "").replace("Bernd Berg", "Jörg Müßig"),
      "latin1",
    );
    expect(read(latin)[1]?.name).toBe("Jörg Müßig");
  });

  it("refuses a broken row naming its line, and the whole file with it", () => {
    expect(refusal(ZOOM_GERMAN_BROKEN)).toBe(
      MSG_REPORT.timeInvalid(7, "Beitrittszeit", "20.13.2026 09:00:00"),
    );
    expect(refusal(ZOOM_GERMAN_BROKEN)).toMatch(/^Zeile 7: /);
  });

  it("names a missing time, a leave before the join, and says how many more rows are broken", () => {
    const rows = [
      "E-Mail;Beginn;Ende",
      "a@example.com;;10:00",
      "b@example.com;11:00;10:00",
      "c@example.com;gestern;10:00",
      "d@example.com;9:00;morgen",
      "e@example.com;9:00;25:00",
    ].join("\n");
    expect(refusal(rows)).toBe(
      [
        MSG_REPORT.timeMissing(2, "Beginn"),
        MSG_REPORT.leaveBeforeJoin(3),
        MSG_REPORT.timeInvalid(4, "Beginn", "gestern"),
        MSG_REPORT.moreProblems(2),
      ].join(" "),
    );
  });

  it("refuses a file that is no CSV, has no header of ours, or only total durations", () => {
    expect(refusal('E-Mail,Beginn,Ende\n"a@example.com,09:00,10:00\n')).toMatch(
      /^Zeile \d+: Die Datei ist keine lesbare CSV-Datei/,
    );
    expect(refusal("Vorname,Nachname\nAnna,Adler\n")).toBe(MSG_REPORT.noHeader);
    expect(refusal("")).toBe(MSG_REPORT.empty);
    expect(
      refusal("Name (Original Name),User Email,Total Duration (Minutes),Guest\nAnna,a@example.com,50,No\n"),
    ).toBe(MSG_REPORT.onlyDurations);
  });
});

describe("parseReportTime", () => {
  it.each([
    ["20.11.2026 09:05", "09:05:00"],
    ["20.11.2026 9:05:30", "09:05:30"],
    ["11/20/2026 12:30:00 AM", "00:30:00"],
    ["11/20/2026 12:00:00 PM", "12:00:00"],
    ["11/20/2026 1:15:00 PM", "13:15:00"],
    ["11/20/2026 13:15:00", "13:15:00"],
    ["2026-11-20 18:00:00", "18:00:00"],
    ["18:00", "18:00:00"],
  ])("%s is %s in Berlin", (value, clock) => {
    expect(parseReportTime(value, REPORT_DAY)).toEqual(berlin(clock));
  });

  it("reads summer dates with summer time", () => {
    expect(parseReportTime("01.07.2026 10:00", REPORT_DAY)).toEqual(new Date("2026-07-01T10:00:00+02:00"));
  });

  it.each(["31.02.2026 10:00", "11/20/2026 13:00:00 PM", "20.11.2026 24:00", "10.00", "", "morgen"])(
    "%s is no time",
    (value) => {
      expect(parseReportTime(value, REPORT_DAY)).toBeNull();
    },
  );
});

describe("mergeByPerson", () => {
  it("merges a person's three joins (two overlapping) and leaves guests without e-mail out", () => {
    const people = mergeByPerson(read(ZOOM_ENGLISH), REPORT_DAY);
    const anna = people.find((p) => p.email === "anna.adler@example.com");
    const nine = 9 * 3600;
    expect(anna?.ranges).toEqual([
      { start: nine + 5, end: 10.5 * 3600 },
      { start: 11 * 3600, end: 11.5 * 3600 },
    ]);
    expect(anna?.lines).toEqual([5, 7, 9]);
    expect(Math.floor(rangesSeconds(anna?.ranges ?? []) / 60)).toBe(ANNA_MINUTES);
    expect(people.map((p) => p.email).sort()).toEqual([
      "anna.adler@example.com",
      "bernd.berg@example.com",
      "niemand@example.com",
    ]);
  });

  it("clips to the day: the part before midnight or after the next is not the day's", () => {
    const rows = [
      {
        line: 2,
        name: "",
        email: "a@example.com",
        from: berlin("23:30:00", "2026-11-19"),
        to: berlin("00:10:00"),
      },
      {
        line: 3,
        name: "",
        email: "a@example.com",
        from: berlin("23:50:00"),
        to: berlin("01:00:00", "2026-11-21"),
      },
      {
        line: 4,
        name: "",
        email: "b@example.com",
        from: berlin("22:00:00", "2026-11-19"),
        to: berlin("23:00:00", "2026-11-19"),
      },
    ];
    const [a, b] = mergeByPerson(rows, REPORT_DAY);
    expect(a?.ranges).toEqual([
      { start: 0, end: 600 },
      { start: 23 * 3600 + 50 * 60, end: 24 * 3600 },
    ]);
    expect(b?.ranges).toEqual([]);
  });

  it("counts a clock-change day in elapsed seconds (25 hours in October)", () => {
    const day = "2026-10-25";
    const rows = [
      {
        line: 2,
        name: "",
        email: "a@example.com",
        from: new Date("2026-10-25T23:00:00+01:00"),
        to: new Date("2026-10-26T02:00:00+01:00"),
      },
    ];
    expect(mergeByPerson(rows, day)[0]?.ranges).toEqual([{ start: 24 * 3600, end: 25 * 3600 }]);
  });

  it("joins touching and overlapping ranges as a multirange union does", () => {
    expect(
      mergeRanges([
        { start: 50, end: 60 },
        { start: 0, end: 10 },
        { start: 10, end: 20 },
        { start: 15, end: 18 },
      ]),
    ).toEqual([
      { start: 0, end: 20 },
      { start: 50, end: 60 },
    ]);
  });
});
