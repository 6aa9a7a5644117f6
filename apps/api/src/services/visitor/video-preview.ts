import { createHash } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import { MAX_MEDIA_SECONDS, vimeoId } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import type { ServiceDeps } from "../deps";

export interface VideoPreview {
  title: string | null;
  /** served from our origin, so the placeholder makes no request to the video host */
  thumbnailUrl: string | null;
}

const FETCH_TIMEOUT_MS = 3000;
export const RETRY_FAILED_AFTER_MS = 60 * 60 * 1000;
const MAX_THUMBNAIL_BYTES = 2_000_000;
export const THUMBNAIL_PATH = "/uploads/video-previews/";

export const previewKey = (url: string) => createHash("sha256").update(url).digest("hex");
/** `previewKey` in SQL, of a content video `v` (an element of a content day's `videos`). */
export const PREVIEW_KEY_SQL = sql`encode(sha256(convert_to(v->>'url', 'UTF8')), 'hex')`;

const inFlight = new Map<string, Promise<VideoPreview>>();

/** Only videos that are part of some congress content get a preview; nobody can make us fetch anything else. */
async function isKnownVideo(db: DbOrTx, url: string): Promise<boolean> {
  const probe = JSON.stringify({ days: [{ videos: [{ url }] }] });
  const result = await db.execute(
    sql`SELECT 1 FROM ${schema.congressContents} WHERE ${schema.congressContents.data} @> ${probe}::jsonb LIMIT 1`,
  );
  return result.rows.length > 0;
}

/** What the host's oEmbed endpoint tells of a video (no thumbnail fetched yet). */
async function fetchOembed(oembedUrl: string, url: string) {
  const endpoint = new URL(oembedUrl);
  endpoint.searchParams.set("url", url);
  endpoint.searchParams.set("width", "640");
  const response = await fetch(endpoint, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) {
    throw new Error(`oEmbed answered ${response.status}`);
  }
  const data = (await response.json()) as { title?: unknown; thumbnail_url?: unknown; duration?: unknown };
  const title = typeof data.title === "string" ? data.title.slice(0, 300) : null;
  // whole seconds; Vimeo answers 0 for a live stream, which has no length and is credited by the clock
  // (ADR 0104, ADR 0126), and nothing for a private or domain-restricted video, which says neither
  const durationSeconds =
    typeof data.duration === "number" && Number.isFinite(data.duration) && data.duration >= 1
      ? Math.min(MAX_MEDIA_SECONDS, Math.round(data.duration))
      : null;
  const live = data.duration === 0;
  const thumbnailUrl = typeof data.thumbnail_url === "string" ? data.thumbnail_url : null;
  return { title, durationSeconds, live, thumbnailUrl };
}

async function fetchPreview(oembedUrl: string, url: string) {
  const { title, durationSeconds, live, thumbnailUrl } = await fetchOembed(oembedUrl, url);
  let thumbnail: Buffer | null = null;
  let thumbnailType: string | null = null;
  if (thumbnailUrl !== null) {
    const image = await fetch(thumbnailUrl, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const type = image.headers.get("content-type") ?? "";
    if (image.ok && /^image\/(jpeg|png|webp)$/.test(type)) {
      const bytes = Buffer.from(await image.arrayBuffer());
      if (bytes.length <= MAX_THUMBNAIL_BYTES) {
        thumbnail = bytes;
        thumbnailType = type;
      }
    }
  }
  return { title, durationSeconds, live, thumbnail, thumbnailType };
}

export type PreviewDeps = Pick<ServiceDeps, "db" | "env" | "log" | "clock">;

/** Fetches the preview from the host and keeps it (or the failure, retried after an hour). */
export async function fetchAndStore(ctx: PreviewDeps, url: string, key: string) {
  const { videoPreviews } = schema;
  const now = ctx.clock.now();
  try {
    const preview = await fetchPreview(ctx.env.VIMEO_OEMBED_URL, url);
    const row = { key, url, ...preview, failedAt: null, fetchedAt: now };
    await ctx.db
      .insert(videoPreviews)
      .values(row)
      .onConflictDoUpdate({ target: videoPreviews.key, set: row });
    return { title: preview.title, hasThumbnail: preview.thumbnail !== null };
  } catch (error) {
    // the video host is unreachable: the placeholder works without title and picture; retry later
    ctx.log.warn({ err: error, url }, "video preview unavailable");
    const row = { key, url, title: null, thumbnail: null, thumbnailType: null, failedAt: now };
    await ctx.db
      .insert(videoPreviews)
      .values(row)
      .onConflictDoUpdate({ target: videoPreviews.key, set: row });
    return { title: null, hasThumbnail: false };
  }
}

async function loadOrFetch(ctx: PreviewDeps, url: string, key: string) {
  const { videoPreviews } = schema;
  const [cached] = await ctx.db.select().from(videoPreviews).where(eq(videoPreviews.key, key));
  const now = ctx.clock.now();
  const fresh =
    cached && (!cached.failedAt || now.getTime() - cached.failedAt.getTime() < RETRY_FAILED_AFTER_MS);
  if (fresh) {
    return { title: cached.title, hasThumbnail: cached.thumbnail !== null };
  }
  return fetchAndStore(ctx, url, key);
}

/** Title and thumbnail of a video, fetched once from the host's oEmbed endpoint and kept. */
export async function videoPreview(
  ctx: Pick<ServiceDeps, "db" | "env" | "log" | "clock">,
  { url }: { url: string },
): Promise<VideoPreview> {
  if (!vimeoId(url) || !(await isKnownVideo(ctx.db, url))) {
    return { title: null, thumbnailUrl: null };
  }
  const key = previewKey(url);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = loadOrFetch(ctx, url, key)
      .then(({ title, hasThumbnail }) => ({
        title,
        thumbnailUrl: hasThumbnail ? `${THUMBNAIL_PATH}${key}` : null,
      }))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

export async function videoThumbnail(
  db: DbOrTx,
  key: string,
): Promise<{ data: Buffer; type: string } | null> {
  const { videoPreviews } = schema;
  const [row] = await db
    .select({ data: videoPreviews.thumbnail, type: videoPreviews.thumbnailType })
    .from(videoPreviews)
    .where(eq(videoPreviews.key, key));
  return row?.data && row.type ? { data: row.data, type: row.type } : null;
}

/**
 * Vimeo's length of a video in whole seconds, and whether Vimeo calls it a live stream (oEmbed `duration`
 * 0), for the content editor to fill in the length and tick "Livestream" (ADR 0105, ADR 0126; admins only):
 * the stored preview's length when it has one, else asked from oEmbed now, without keeping anything (the
 * address may never be saved; a saved one gets its preview from the `video-durations` job). A preview that
 * said live is asked again (a stream may have become a recording), and stands when Vimeo does not answer.
 * No length for an address that is not Vimeo's, a private video, a live stream or an unreachable host.
 */
export async function vimeoLength(
  ctx: PreviewDeps,
  { url }: { url: string },
): Promise<{ seconds: number | null; live: boolean }> {
  if (!vimeoId(url)) {
    return { seconds: null, live: false };
  }
  const { videoPreviews } = schema;
  const [stored] = await ctx.db
    .select({ seconds: videoPreviews.durationSeconds, live: videoPreviews.live })
    .from(videoPreviews)
    .where(eq(videoPreviews.key, previewKey(url)));
  if (stored?.seconds && stored.seconds > 0) {
    return { seconds: stored.seconds, live: false };
  }
  try {
    const { durationSeconds, live } = await fetchOembed(ctx.env.VIMEO_OEMBED_URL, url);
    return { seconds: durationSeconds, live };
  } catch (error) {
    ctx.log.warn({ err: error, url }, "video length unavailable");
    return { seconds: null, live: stored?.live ?? false };
  }
}
