import { describe, expect, it } from "vitest";
import { ZContentInput } from "./admin";
import {
  formatVideoLength,
  MSG_VIDEO_LENGTH,
  MSG_VIDEO_LIVE,
  parseVideoLength,
  zVideoLength,
} from "./video-length";

describe("a video's length as the organiser types it", () => {
  it.each([
    ["0:59", 59],
    ["12:34", 754],
    ["08:05", 485],
    // minutes past the hour as mm:ss, as video players show a long recording
    ["95:30", 5730],
    ["1:02:03", 3723],
    ["01:02:03", 3723],
    ["24:00:00", 86_400],
    ["0:00", 0],
  ])("reads %s as %i seconds", (text, seconds) => {
    expect(parseVideoLength(text)).toBe(seconds);
  });

  it.each([
    // plain minutes are refused: "45" could as well be seconds
    "45",
    "1:5",
    "12:60",
    "1:60:00",
    "1:02:03:04",
    "123:02:03",
    "12345:00",
    "1.30",
    "1,5",
    "-1:00",
    "12 : 34",
    "abc",
    "",
  ])("refuses %j as no length", (text) => {
    expect(parseVideoLength(text)).toBeNull();
  });

  it.each([
    [59, "0:59"],
    [754, "12:34"],
    [3600, "1:00:00"],
    [3723, "1:02:03"],
    [5730, "1:35:30"],
    [86_400, "24:00:00"],
  ])("shows %i seconds as %s, which reads back the same", (seconds, text) => {
    expect(formatVideoLength(seconds)).toBe(text);
    expect(parseVideoLength(text)).toBe(seconds);
  });
});

describe("the length field (zVideoLength)", () => {
  const messageOf = (value: unknown) => zVideoLength.safeParse(value).error?.issues.map((i) => i.message);

  it("is optional: empty, null or absent is no length", () => {
    for (const value of ["", "  ", null, undefined]) {
      expect(zVideoLength.parse(value)).toBeUndefined();
    }
  });

  it("takes the typed text or the stored seconds (REST's JSON, as the list answers it)", () => {
    expect(zVideoLength.parse(" 1:02:03 ")).toBe(3723);
    expect(zVideoLength.parse(754)).toBe(754);
  });

  it("says what is wrong in German", () => {
    for (const value of ["45", "12:60", "abc", "1:02:03:04", "x".repeat(50)]) {
      expect(messageOf(value), value).toEqual([MSG_VIDEO_LENGTH.format]);
    }
    for (const value of ["0:00", "00:00:00", "24:00:01", "1441:00", 0, 86_401]) {
      expect(messageOf(value), String(value)).toEqual([MSG_VIDEO_LENGTH.range]);
    }
    expect(messageOf(12.5)).toEqual([MSG_VIDEO_LENGTH.wholeSeconds]);
    expect(messageOf(true)).toEqual([MSG_VIDEO_LENGTH.format]);
    expect(MSG_VIDEO_LENGTH.format).toBe("Die Länge ist im Format mm:ss oder hh:mm:ss anzugeben.");
  });
});

describe("the video content with lengths", () => {
  const content = (videos: Record<string, unknown>[]) => ({
    congress: 1,
    data: { days: [{ name: "Tag 1", videos }] },
  });

  it("stores a given length in seconds and none where it is not given (older clients send none)", () => {
    const parsed = ZContentInput.parse(
      content([
        { url: "https://player.vimeo.com/video/1", comment: "Eröffnung", duration: "1:30:00" },
        { url: "https://player.vimeo.com/video/2", duration: "" },
        { url: "https://player.vimeo.com/video/3" },
        { url: "https://player.vimeo.com/video/4", duration: 600 },
      ]),
    );
    const videos = parsed.data.days[0]?.videos;
    expect(JSON.parse(JSON.stringify(videos))).toEqual([
      { url: "https://player.vimeo.com/video/1", comment: "Eröffnung", duration: 5400 },
      { url: "https://player.vimeo.com/video/2", comment: "" },
      { url: "https://player.vimeo.com/video/3", comment: "" },
      { url: "https://player.vimeo.com/video/4", comment: "", duration: 600 },
    ]);
  });

  it("names the video whose length is wrong", () => {
    const result = ZContentInput.safeParse(
      content([
        { url: "https://player.vimeo.com/video/1", duration: "1:30" },
        { url: "https://player.vimeo.com/video/2", duration: "90" },
      ]),
    );
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["data.days.0.videos.1.duration", MSG_VIDEO_LENGTH.format],
    ]);
  });
});

describe("the live flag of a content video (ADR 0126: the organiser says what is live)", () => {
  const content = (videos: Record<string, unknown>[]) => ({
    congress: 1,
    data: { days: [{ name: "Tag 1", videos }] },
  });
  const url = (n: number) => `https://player.vimeo.com/video/${n}`;

  it("is kept when true, next to the planned length; false, null or absent store none (older clients send none)", () => {
    const parsed = ZContentInput.parse(
      content([
        { url: url(1), comment: "Livestream", duration: "1:30:00", live: true },
        { url: url(2), live: false },
        { url: url(3), live: null },
        { url: url(4) },
      ]),
    );
    expect(JSON.parse(JSON.stringify(parsed.data.days[0]?.videos))).toEqual([
      { url: url(1), comment: "Livestream", duration: 5400, live: true },
      { url: url(2), comment: "" },
      { url: url(3), comment: "" },
      { url: url(4), comment: "" },
    ]);
  });

  it("refuses anything but yes or no in German, named at the video", () => {
    for (const live of ["true", "ja", 1, 0, {}, []]) {
      const result = ZContentInput.safeParse(content([{ url: url(1) }, { url: url(2), live }]));
      expect(
        result.error?.issues.map((i) => [i.path.join("."), i.message]),
        JSON.stringify(live),
      ).toEqual([["data.days.0.videos.1.live", MSG_VIDEO_LIVE]]);
    }
    expect(MSG_VIDEO_LIVE).toBe("Bitte geben Sie mit Ja oder Nein an, ob das Video ein Livestream ist.");
  });
});
