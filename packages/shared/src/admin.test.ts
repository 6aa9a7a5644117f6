import { describe, expect, it } from "vitest";
import {
  CHECKOUT_ID_FIELDS,
  extractIframeSrc,
  MSG_ADMIN,
  ZCongressInput,
  ZContentInput,
  ZPackageInput,
} from "./admin";

describe("extractIframeSrc", () => {
  it("takes the src of a pasted Vimeo embed code", () => {
    const code =
      '<iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e&amp;badge=0" width="640" height="360" frameborder="0" allowfullscreen></iframe>';
    expect(extractIframeSrc(code)).toBe("https://player.vimeo.com/video/76979871?h=8272103f6e&badge=0");
    expect(extractIframeSrc("<iframe width='1' src='//player.vimeo.com/video/1'></iframe>")).toBe(
      "https://player.vimeo.com/video/1",
    );
  });

  it("leaves everything else as it is", () => {
    const youtube = '<iframe src="https://www.youtube.com/embed/x"></iframe>';
    expect(extractIframeSrc(youtube)).toBe(youtube);
    expect(extractIframeSrc("https://vimeo.com/76979871")).toBe("https://vimeo.com/76979871");
    const lookalike = '<iframe src="https://player.vimeo.com.evil.example/video/1"></iframe>';
    expect(extractIframeSrc(lookalike)).toBe(lookalike);
    expect(extractIframeSrc('<iframe src="">')).toBe('<iframe src="">');
  });
});

describe("admin form rules", () => {
  const congress = {
    title: "Kongress",
    description: "Text",
    firstCongressDay: { date: "2026-12-01" },
    lastCongressDay: { date: "2026-12-03" },
  };

  it("requires title, description and the first day; the last day may not lie before it", () => {
    expect(ZCongressInput.safeParse(congress).success).toBe(true);
    const empty = ZCongressInput.safeParse({ ...congress, title: "  ", description: "" });
    expect(empty.error?.issues.map((i) => i.message)).toEqual([
      MSG_ADMIN.titleRequired,
      MSG_ADMIN.descriptionRequired,
    ]);
    expect(ZCongressInput.safeParse({ ...congress, firstCongressDay: null }).error?.issues[0]?.message).toBe(
      MSG_ADMIN.firstDayRequired,
    );
    expect(
      ZCongressInput.safeParse({ ...congress, lastCongressDay: { date: "2026-11-30" } }).error?.issues[0]
        ?.message,
    ).toBe(MSG_ADMIN.lastDayBeforeFirst);
    expect(ZCongressInput.safeParse({ ...congress, webinarStartTime: "24:00" }).success).toBe(false);
    expect(ZCongressInput.parse({ ...congress, webinarStartTime: "", webinarUrl: "" })).toMatchObject({
      webinarStartTime: null,
      webinarUrl: null,
    });
  });

  it("requires name, congress, checkout id and description of a package", () => {
    const result = ZPackageInput.safeParse({ name: "", congress: null, externalId: 0, description: "" });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      MSG_ADMIN.nameRequired,
      MSG_ADMIN.congressRequired,
      MSG_ADMIN.externalIdRequired,
      MSG_ADMIN.descriptionRequired,
    ]);
    expect(
      ZPackageInput.parse({ name: "P", congress: { id: 4 }, externalId: "12", description: "D" }),
    ).toMatchObject({
      congress: 4,
      externalId: 12,
    });
  });

  it("accepts only real DD.MM.YYYY exclusive dates", () => {
    const content = (exclusive_date: string) => ({
      congress: 1,
      data: {
        days: [{ name: "Tag 1", exclusive_date, videos: [{ url: "https://player.vimeo.com/video/1" }] }],
      },
    });
    expect(ZContentInput.safeParse(content("")).success).toBe(true);
    expect(ZContentInput.safeParse(content("01.12.2026")).success).toBe(true);
    expect(ZContentInput.safeParse(content("31.11.2026")).error?.issues[0]?.message).toBe(
      MSG_ADMIN.exclusiveDateInvalid,
    );
    expect(ZContentInput.safeParse(content("2026-12-01")).success).toBe(false);
  });

  it("strips control characters from plain text", () => {
    expect(ZCongressInput.parse({ ...congress, title: "A\u0000B\u0007" }).title).toBe("AB");
  });
});

describe("field messages that say what is wrong (ADR 0088)", () => {
  const congress = {
    title: "Kongress",
    description: "Text",
    firstCongressDay: { date: "2026-12-01" },
    lastCongressDay: { date: "2026-12-03" },
  };
  const messagesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

  it("a too long title or description is named as too long, not as missing", () => {
    const result = ZCongressInput.safeParse({
      ...congress,
      title: "x".repeat(301),
      description: "y".repeat(20_001),
    });
    expect(messagesOf(result)).toEqual({
      title: "Der Titel darf höchstens 300 Zeichen lang sein.",
      description: "Die Beschreibung darf höchstens 20.000 Zeichen lang sein.",
    });
    const pkg = ZPackageInput.safeParse({
      name: "n".repeat(301),
      congress: 1,
      externalId: 1,
      description: "D",
    });
    expect(messagesOf(pkg)).toEqual({ name: "Der Name darf höchstens 300 Zeichen lang sein." });
  });

  it("a checkout id that is no number asks for a number", () => {
    expect(messagesOf(ZCongressInput.safeParse({ ...congress, digistoreIdTicket: "abc" }))).toEqual({
      digistoreIdTicket: "Bitte geben Sie eine Zahl ein.",
    });
    expect(messagesOf(ZCongressInput.safeParse({ ...congress, digistoreIdTicketAndPackage: "-1" }))).toEqual({
      digistoreIdTicketAndPackage:
        "Die Checkout-ID Ticket + Kongresspaket ist eine ganze Zahl ab 0; 0 = nicht angeboten.",
    });
  });

  it("a refused ticket id says what 0 means, as the field's hint does: no ticket sale, free participation", () => {
    for (const value of ["-1", "1.5", -3]) {
      expect(messagesOf(ZCongressInput.safeParse({ ...congress, digistoreIdTicket: value }))).toEqual({
        digistoreIdTicket:
          "Die Checkout-ID Ticket ist eine ganze Zahl ab 0; 0 = kein Ticketverkauf (die Teilnahme ist kostenlos).",
      });
    }
    expect(MSG_ADMIN.ticketIdInvalid).toContain(CHECKOUT_ID_FIELDS.digistoreIdTicket.zero);
    expect(MSG_ADMIN.ticketAndPackageIdInvalid).toContain(
      CHECKOUT_ID_FIELDS.digistoreIdTicketAndPackage.zero,
    );
    expect(ZCongressInput.parse({ ...congress, digistoreIdTicket: "0" }).digistoreIdTicket).toBe(0);
  });

  it("a video content without an event asks for one", () => {
    for (const value of [0, "", null, undefined, "abc"]) {
      expect(messagesOf(ZContentInput.safeParse({ congress: value, data: { days: [] } }))).toEqual({
        congress: MSG_ADMIN.congressRequired,
      });
    }
  });

  it("a package's crosssellLink is a web address or a path of this app, nothing else", () => {
    const pkg = { name: "P", congress: 1, externalId: 1, description: "D" };
    const refused = [
      "javascript:alert(1)",
      "java\tscript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "keine Adresse",
      "kongresspaket",
      "//evil.example",
      "//evil.example/congress-package-purchase/5",
      "/\\evil.example",
      "\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https:evil.example",
      "ftp://example.com/datei",
      "https://",
    ];
    for (const link of refused) {
      const result = ZPackageInput.safeParse({ ...pkg, extraParameters: { crosssellLink: link } });
      expect(messagesOf(result), link).toEqual({
        "extraParameters.crosssellLink": MSG_ADMIN.crosssellLinkInvalid,
      });
    }
    const accepted = [
      "https://example.com/angebot",
      "http://example.com",
      "HTTPS://EXAMPLE.COM/x?y=1#z",
      "/congress-package-purchase/5",
      "/",
      "/kongresspaket?ref=paket-2#kaufen",
      " /congress-package-purchase/5 ",
      "",
    ];
    for (const link of accepted) {
      expect(
        ZPackageInput.safeParse({ ...pkg, extraParameters: { crosssellLink: link } }).success,
        link,
      ).toBe(true);
    }
  });

  it("a video address is an absolute http(s) address, as its field says", () => {
    const content = (url: string) => ({
      congress: 1,
      data: { days: [{ name: "Tag 1", videos: [{ url, comment: "" }] }] },
    });
    for (const url of [
      "nicht-eine-url",
      "/video/1",
      "//player.vimeo.com/video/1",
      "javascript:alert(1)",
      "player.vimeo.com/video/1",
    ]) {
      expect(messagesOf(ZContentInput.safeParse(content(url))), url).toEqual({
        "data.days.0.videos.0.url": MSG_ADMIN.videoUrlInvalid,
      });
    }
    for (const url of ["https://player.vimeo.com/video/1", "http://vimeo.com/76979871"]) {
      expect(ZContentInput.safeParse(content(url)).success, url).toBe(true);
    }
  });
});

describe("the forms' values are the schemas' input (ADR 0093)", () => {
  const event = { title: "T", description: "D" };
  const days = (first: unknown, last: unknown) =>
    ZCongressInput.safeParse({ ...event, firstCongressDay: first, lastCongressDay: last });
  const messages = (result: ReturnType<typeof days>) =>
    result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("reads a day typed as TT.MM.JJJJ (or JJJJ-MM-TT) as the REST payload's {date}", () => {
    expect(days("10.03.2027", " 2027-03-12 ").data).toMatchObject({
      firstCongressDay: { date: "2027-03-10" },
      lastCongressDay: { date: "2027-03-12" },
    });
  });

  it("keeps the REST payload's shapes: {date}, and a one-day event's last day left out or null", () => {
    expect(days({ date: "2027-03-10" }, null).data).toMatchObject({
      firstCongressDay: { date: "2027-03-10" },
      lastCongressDay: null,
    });
    expect(days({ date: "2027-03-10" }, undefined).success).toBe(true);
    expect(messages(days({ date: "10.03.2027" }, null))).toEqual([
      ["firstCongressDay.date", "Bitte wählen Sie ein gültiges Datum."],
    ]);
  });

  it("asks for the period when no day is typed, for a typed last day when only the first is", () => {
    expect(messages(days("", ""))).toEqual([["firstCongressDay", MSG_ADMIN.firstDayRequired]]);
    expect(messages(days("10.03.2027", ""))).toEqual([
      ["lastCongressDay", "Bitte wählen Sie ein gültiges Datum."],
    ]);
    expect(messages(days("31.02.2027", "01.03.2027"))).toEqual([
      ["firstCongressDay", "Bitte wählen Sie ein gültiges Datum."],
    ]);
    expect(messages(days("10.03.2027", "09.03.2027"))).toEqual([
      ["lastCongressDay", MSG_ADMIN.lastDayBeforeFirst],
    ]);
  });

  it("reads a package's empty date field as no date and its extra parameters as the form's pairs", () => {
    const pkg = { name: "P", congress: "7", externalId: "12", description: "D" };
    const parsed = ZPackageInput.parse({
      ...pkg,
      availabilityDate: "",
      extraParameters: [
        { key: " voucher ", value: "TEST10" },
        { key: " ", value: "eine leere Zeile" },
      ],
    });
    expect(parsed).toMatchObject({
      congress: 7,
      externalId: 12,
      availabilityDate: null,
      extraParameters: { voucher: "TEST10" },
    });
    // the form's date as the event form types it (TT.MM.JJJJ), the REST payload's as JJJJ-MM-TT
    expect(ZPackageInput.parse({ ...pkg, availabilityDate: "01.06.2031" }).availabilityDate).toBe(
      "2031-06-01",
    );
    expect(ZPackageInput.parse({ ...pkg, availabilityDate: "2031-06-01" }).availabilityDate).toBe(
      "2031-06-01",
    );
    expect(ZPackageInput.parse({ ...pkg, availabilityDate: null }).availabilityDate).toBeNull();
    for (const wrong of ["31.02.2031", "1.6.2031", "morgen"]) {
      expect(ZPackageInput.safeParse({ ...pkg, availabilityDate: wrong }).error?.issues[0]).toMatchObject({
        path: ["availabilityDate"],
        message: "Bitte wählen Sie ein gültiges Datum.",
      });
    }
    // the REST payload's map as before
    expect(ZPackageInput.parse({ ...pkg, extraParameters: { voucher: "X" } }).extraParameters).toEqual({
      voucher: "X",
    });
    expect(
      ZPackageInput.safeParse({ ...pkg, extraParameters: [{ key: "crosssellLink", value: "javascript:x" }] })
        .error?.issues[0]?.message,
    ).toBe(MSG_ADMIN.crosssellLinkInvalid);
  });
});
