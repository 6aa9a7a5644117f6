import { describe, expect, it } from "vitest";
import {
  dayVideos,
  isDayVisible,
  isTicketed,
  parseGermanDate,
  vimeoEmbedUrl,
  visibleDays,
} from "./congresses";

describe("isTicketed", () => {
  it("is true when either checkout product id is greater than 0", () => {
    expect(isTicketed({ digistoreIdTicket: 0, digistoreIdTicketAndPackage: 0 })).toBe(false);
    expect(isTicketed({ digistoreIdTicket: 17, digistoreIdTicketAndPackage: 0 })).toBe(true);
    expect(isTicketed({ digistoreIdTicket: 0, digistoreIdTicketAndPackage: 18 })).toBe(true);
  });
});

describe("exclusive dates", () => {
  it("parses only real DD.MM.YYYY dates", () => {
    expect(parseGermanDate("01.03.2026")).toBe("2026-03-01");
    expect(parseGermanDate(" 29.02.2028 ")).toBe("2028-02-29");
    expect(parseGermanDate("29.02.2027")).toBeNull();
    expect(parseGermanDate("2026-03-01")).toBeNull();
    expect(parseGermanDate("1.3.2026")).toBeNull();
  });

  it("shows a day from its date on, always without a date, never with a malformed one", () => {
    expect(isDayVisible("", "2026-11-23")).toBe(true);
    expect(isDayVisible(undefined, "2026-11-23")).toBe(true);
    expect(isDayVisible("23.11.2026", "2026-11-23")).toBe(true);
    expect(isDayVisible("22.11.2026", "2026-11-23")).toBe(true);
    expect(isDayVisible("24.11.2026", "2026-11-23")).toBe(false);
    expect(isDayVisible("kommt bald", "2026-11-23")).toBe(false);
  });

  it("leaves hidden days out entirely, unless told to ignore the dates", () => {
    const contents = [
      {
        type: "vimeo-url" as const,
        days: [
          {
            name: "Tag 1",
            exclusive_date: "",
            videos: [{ url: "https://player.vimeo.com/video/1", comment: "A" }],
          },
          {
            name: "Tag 2",
            exclusive_date: "24.11.2026",
            videos: [{ url: "https://player.vimeo.com/video/2" }],
          },
        ],
      },
    ];
    expect(visibleDays(contents, "2026-11-23")).toEqual([
      { name: "Tag 1", videos: [{ url: "https://player.vimeo.com/video/1", comment: "A" }] },
    ]);
    expect(visibleDays(contents, "2026-11-24").map((d) => d.name)).toEqual(["Tag 1", "Tag 2"]);
    expect(visibleDays(contents, "2026-11-23", { ignoreExclusiveDates: true })).toHaveLength(2);
  });
});

describe("videos", () => {
  it("reads the older vimeo form from its video codes", () => {
    expect(dayVideos("vimeo", { name: "Alt", videoCodes: ["123", "x"] })).toEqual([
      { url: "https://player.vimeo.com/video/123", comment: "" },
    ]);
    expect(
      dayVideos("vimeo-url", { name: "Neu", videos: [{ url: " " }, { url: "https://vimeo.com/5" }] }),
    ).toEqual([{ url: "https://vimeo.com/5", comment: "" }]);
  });

  it("builds do-not-track player URLs and keeps the hash of unlisted videos", () => {
    expect(vimeoEmbedUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871?dnt=1");
    expect(vimeoEmbedUrl("https://player.vimeo.com/video/76979871?h=abc123&autoplay=1")).toBe(
      "https://player.vimeo.com/video/76979871?h=abc123&dnt=1",
    );
    expect(vimeoEmbedUrl("https://vimeo.com/76979871/0f9a8b7c6d")).toBe(
      "https://player.vimeo.com/video/76979871?h=0f9a8b7c6d&dnt=1",
    );
    expect(vimeoEmbedUrl("https://youtube.com/watch?v=1")).toBeNull();
  });
});
