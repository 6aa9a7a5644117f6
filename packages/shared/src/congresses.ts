import type { ContentType } from "./constants";
import type { IsoDate } from "./dates";

/** A congress offers tickets when one of its two checkout product ids is greater than 0 (spec sections 3, 4). */
export function isTicketed(congress: {
  digistoreIdTicket: number;
  digistoreIdTicketAndPackage: number;
}): boolean {
  return congress.digistoreIdTicket > 0 || congress.digistoreIdTicketAndPackage > 0;
}

/** `DD.MM.YYYY` → `YYYY-MM-DD`, or null when it is not a real calendar date. */
export function parseGermanDate(value: string): IsoDate | null {
  const match = value.trim().match(/^(\d{2})\.(\d{2})\.(\d{4})$/);
  if (!match) {
    return null;
  }
  const [, d, m, y] = match;
  const iso = `${y}-${m}-${d}`;
  const check = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * A day with an exclusive date shows its videos only once that date is today or past (Berlin); days without
 * one always show. A malformed date hides the day rather than showing videos early.
 */
export function isDayVisible(exclusiveDate: string | undefined, today: IsoDate): boolean {
  if (!exclusiveDate || exclusiveDate.trim() === "") {
    return true;
  }
  const date = parseGermanDate(exclusiveDate);
  return date !== null && date <= today;
}

export interface Video {
  url: string;
  comment: string;
}

export interface StoredDay {
  name: string;
  exclusive_date?: string;
  videos?: { url?: string; comment?: string }[];
  /** older `vimeo` form */
  videoCodes?: string[];
}

export interface VisibleDay {
  name: string;
  videos: Video[];
}

const VIMEO_ID = /(?:player\.vimeo\.com\/video\/|vimeo\.com\/(?:video\/)?)(\d+)/;

/** The numeric video id of a Vimeo URL (player or page URL), or null. */
export function vimeoId(url: string): string | null {
  return url.match(VIMEO_ID)?.[1] ?? null;
}

/** The privacy-friendly player URL (`dnt=1`) of a Vimeo video; keeps the hash of unlisted videos. */
export function vimeoEmbedUrl(url: string): string | null {
  const id = vimeoId(url);
  if (!id) {
    return null;
  }
  const embed = new URL(`https://player.vimeo.com/video/${id}`);
  let hash: string | null = null;
  try {
    const given = new URL(url);
    hash = given.searchParams.get("h") ?? given.pathname.match(new RegExp(`/${id}/([0-9a-f]+)`))?.[1] ?? null;
  } catch {
    // not a full URL: no hash
  }
  if (hash) {
    embed.searchParams.set("h", hash);
  }
  embed.searchParams.set("dnt", "1");
  return embed.toString();
}

/** The videos of a stored day in one shape, for both content types (the older `vimeo` form lists codes). */
export function dayVideos(type: ContentType, day: StoredDay): Video[] {
  const videos = (day.videos ?? [])
    .filter((v): v is { url: string; comment?: string } => typeof v.url === "string" && v.url.trim() !== "")
    .map((v) => ({ url: v.url.trim(), comment: v.comment ?? "" }));
  if (type === "vimeo" && videos.length === 0) {
    return (day.videoCodes ?? [])
      .filter((code) => /^\d+$/.test(String(code)))
      .map((code) => ({ url: `https://player.vimeo.com/video/${code}`, comment: "" }));
  }
  return videos;
}

/** The days a visitor may see today, with their videos; hidden days are left out entirely. */
export function visibleDays(
  contents: { type: ContentType; days: StoredDay[] }[],
  today: IsoDate,
  options: { ignoreExclusiveDates?: boolean } = {},
): VisibleDay[] {
  return contents.flatMap((content) =>
    content.days
      .filter((day) => options.ignoreExclusiveDates || isDayVisible(day.exclusive_date, today))
      .map((day) => ({ name: day.name, videos: dayVideos(content.type, day) })),
  );
}

/** Fills `{name}` placeholders of our message texts. */
export function fillMessage(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
